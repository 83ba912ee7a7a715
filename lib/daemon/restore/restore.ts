/**
 * What a restore brings back for one saved pane, after a restart or a crash
 * of skiffd: a pane whose process had exited stays exited, with its exit
 * and its last screen; any other pane gets a new shell, with the old
 * process's history and last screen above it and a line that marks where
 * the new shell starts.
 *
 * @module
 */

import { historyAbove, historyAboveLines, markerLine } from "../../screen/saved_screen.ts";
import { isDirectory } from "../../platform/files.ts";
import type { LazyPrelude, SavedScreen } from "../../screen/screen.ts";
import type { HistoryCount, ScreenStore } from "../screens/mod.ts";
import type { SavedPane } from "../records/mod.ts";
import type { Pane } from "../panes/mod.ts";
import type { PaneResume } from "../../protocol/panes.ts";

/** How a saved pane comes back. */
export type RestorePlan =
  | {
    /** Its process had exited: it stays exited. */
    kind: "exited";
    /** Its last screen, when one was saved. */
    screen?: SavedScreen;
    /** What its history file holds. */
    history?: HistoryCount;
  }
  | {
    /** A new shell. */
    kind: "shell";
    /**
     * What to draw on the new screen first: the old history, if saved, and
     * the marker; an old screen is drawn only once the new one is first used.
     */
    prelude: string | LazyPrelude;
  };

/** Formats a time as people read it in a marker line: `2026-12-01 14:02:11`. */
export function markerTime(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ` +
    `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** The text of the line that marks where a restored pane's new shell starts. */
export function restoreMarker(at: Date, then?: string): string {
  return `skiffd restarted ${markerTime(at)}: the process above ended; a new shell starts here` +
    (then ? `, ${then}` : "");
}

/**
 * Decides how `saved` comes back and reads its saved screen from `screens`.
 * `then` says what follows the new shell (a resume line), for the marker.
 */
export function planRestore(
  saved: SavedPane,
  screens: ScreenStore,
  options: { now: Date; then?: string },
): RestorePlan {
  const loaded = screens.load(saved.id);
  if (saved.exited) return { kind: "exited", screen: loaded?.screen, history: loaded?.history };
  const marker = restoreMarker(options.now, options.then);
  if (!loaded) return { kind: "shell", prelude: markerLine(marker, saved.cols) };
  const screen = loaded.screen;
  return {
    kind: "shell",
    prelude: { lines: historyAboveLines(screen), text: () => historyAbove(screen, marker) },
  };
}

/** What {@linkcode restorePanes} needs from the live workspace. */
export interface RestoreHost {
  /** The saved screens. */
  screens: ScreenStore;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** The command of a restored pane's new shell. */
  shell: () => string[];
  /** A new generation. */
  nextGeneration: () => number;
  /** The folder of the worktree Skiff made for the pane, if it has one. */
  worktreeFolder: (saved: SavedPane) => string | undefined;
  /** Starts a new shell for `saved` (its command and generation set), with `prelude` on its screen. */
  startShell: (saved: SavedPane, prelude: string | LazyPrelude) => Promise<Pane>;
  /** Makes the exited pane `saved`, with its last screen when one was saved. */
  startExited: (saved: SavedPane, screen?: SavedScreen) => Pane;
  /** Decides whether the pane's agent is resumed (see `resume.ts`). */
  planResume: (saved: SavedPane) => Promise<PaneResume | undefined>;
  /** The pane's new shell started: `resume` is what happens to its agent. */
  started: (pane: Pane, resume: PaneResume | undefined) => void;
  /** Tells that a pane came back. */
  restored: (pane: Pane) => void;
}

/**
 * Brings back every saved pane: one whose process had exited stays exited,
 * with its exit and last screen (same generation); every other one gets a
 * new shell in its last folder (its worktree's, else home, when that is
 * gone) with a new
 * generation, its old history and last screen above it and a marker line.
 */
export async function restorePanes(panes: SavedPane[], host: RestoreHost): Promise<void> {
  const now = new Date();
  for (const saved of panes) {
    const resume = saved.exited ? undefined : await host.planResume(saved);
    const resuming = resume?.state === "waiting";
    // The agent resumes in its conversation's folder (Claude Code's are per folder).
    if (resuming) saved.cwd = saved.conversation!.cwd;
    const then = resuming ? `and ${resume.agent} resumes its conversation` : undefined;
    const plan = planRestore(saved, host.screens, { now, then });
    if (plan.kind === "exited") {
      const pane = host.startExited(saved, plan.screen);
      host.restored(pane);
      host.log(`pane ${saved.id} (${saved.name}) restored as exited (${saved.exited!.code})`);
      continue;
    }
    if (!isDirectory(saved.cwd)) {
      const worktree = host.worktreeFolder(saved);
      const fallback = worktree && isDirectory(worktree) ? worktree : Deno.env.get("HOME") ?? "/";
      host.log(`pane ${saved.id}: folder ${saved.cwd} is gone; using ${fallback}`);
      saved.cwd = fallback;
    }
    saved.generation = host.nextGeneration();
    saved.command = host.shell();
    const pane = await host.startShell(saved, plan.prelude);
    host.started(pane, resume);
    host.restored(pane);
    host.log(`pane ${saved.id} (${saved.name}) restored as ${pane.pid}`);
  }
}
