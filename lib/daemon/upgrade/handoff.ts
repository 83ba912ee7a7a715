/**
 * The handoff: what a running skiffd gives the program that replaces it in
 * place (`skiff daemon upgrade`, see `upgrade.ts` and `adopt.ts`), as one
 * JSON file beside the socket (0600), plus descriptors kept open across
 * the exec: the listening socket, the lock, and each running pane's PTY
 * master (their numbers are in the file).
 *
 * The file holds everything skiffd keeps only in memory: the workspace with
 * every change, each pane's process (pid, descriptor, generation), its
 * whole screen (`lib/screen/screen_state.ts`), its exit if it ended, its
 * agent tracker's memory and what it counted; the event run with its
 * numbers and recent events; the watcher's remembered lines; killed panes
 * still in their grace; and the other children the new program must wait
 * for. A new field of memory must be added here, or a new skiffd starts
 * without it.
 *
 * The format has its own version ({@linkcode HANDOFF_VERSION}): a program
 * takes only a version it knows, and says so in its check before anything
 * changes. The client protocol may differ between the two programs.
 *
 * @module
 */

import { join } from "../../platform/path.ts";
import { writeFileAtomic } from "../../platform/files.ts";
import type { RuntimeFiles } from "../../config/paths.ts";
import type { PtyExit } from "../../platform/pty.ts";
import type { TrackerState } from "../../agents/tracker.ts";
import type { PaneResume } from "../../protocol/panes.ts";
import { isScreenState, type ScreenState } from "../../screen/screen_state.ts";
import type { HistoryAsideText, SleepSummary } from "../../screen/screen.ts";
import type { SavedEvents } from "../records/mod.ts";
import type { WorkspaceMemory } from "../workspace/mod.ts";
import type { UpgradeStep } from "../server/mod.ts";

/**
 * The newest handoff format this build writes. Version 2 hands a sleeping
 * screen's escape sequences over deflated ({@linkcode HandedPane.asleep}), a
 * tenth of their size: with a thousand panes the file is megabytes, not tens
 * of them. Version 3 hands output that was read and not parsed yet over as
 * it is ({@linkcode HandedPane.waiting}), so the freeze does not wait for
 * busy panes' output to be parsed. Version 4 hands a busy pane's older
 * history lines over apart ({@linkcode HandedPane.history_aside}), so the
 * new skiffd runs the pane on before it builds them. skiffd writes the
 * newest version the new program's check says it reads, and no newer than
 * what it hands over needs (see `upgrade.ts`).
 */
export const HANDOFF_VERSION = 4;

/** The version of a handoff with output handed over unparsed and no history apart. */
export const HANDOFF_WAITING_VERSION = 3;

/** The version of a handoff that hands no unparsed output over. */
export const HANDOFF_PARSED_VERSION = 2;

/** The handoff versions this build reads. */
export const HANDOFF_READS: readonly number[] = [
  1,
  HANDOFF_PARSED_VERSION,
  HANDOFF_WAITING_VERSION,
  HANDOFF_VERSION,
];

/**
 * How many screens of each kind (awake, asleep) an upgrade's check hands
 * over whole and rebuilds: a few prove the new program reads them and its
 * emulator runs; all of a thousand would take as long as the upgrade. The
 * other panes' screens go to the check blank. The awake ones are those with
 * the least history.
 */
export const CHECK_SCREENS = 3;

/** Where the old skiffd names the handoff file for the new program. */
export const HANDOFF_ENV = "SKIFF_HANDOFF";

/** Set for a check run: the new program reads the handoff, rebuilds it in memory, and says so. */
export const HANDOFF_CHECK_ENV = "SKIFF_HANDOFF_CHECK";

/** Set when a new program that failed runs the old one again: why it failed. */
export const HANDOFF_UNDO_ENV = "SKIFF_HANDOFF_UNDO";

/** A pane as handed over. */
export interface HandedPane {
  /** Its id. */
  id: string;
  /** Its process, while it runs. */
  pid: number | null;
  /** Its PTY master's descriptor, while the process runs. */
  fd: number | null;
  /** How the process ended, once it has. */
  exit: PtyExit | null;
  /** When it ended (ms since the epoch). */
  exited_at: number | null;
  /** Its whole screen. */
  screen: ScreenState;
  /** Its agent tracker's memory. */
  tracker: TrackerState | null;
  /** When its state last changed (ms since the epoch). */
  state_since: number;
  /** When a person last typed into it (ms since the epoch), or 0. */
  person_typed_at: number;
  /** How many inputs came from a person. */
  person_inputs: number;
  /** Bytes of output the process printed. */
  output_bytes?: number;
  /** When it last printed (ms since the epoch), or 0. */
  output_at?: number;
  /** What became of resuming its agent's conversation after a restore, for `skiff explain`. */
  resume?: PaneResume;
  /** Whether it was busy (a person attached, or output just now): it is taken over first. */
  hot?: boolean;
  /**
   * Where its saved screen stood (the files a restore after a crash reads):
   * what its history file holds, and whether the screen changed since. A
   * skiffd that hands over no such field counts every screen changed.
   */
  screen_save?: { unsaved: boolean; history_bytes: number; history_lines: number };
  /**
   * What its screen kept beside {@linkcode HandedPane.screen} while it slept
   * (see `Screen.sleepSummary`): the new skiffd adopts it still asleep. With
   * `vt_deflate` (version 2), the state's escape sequences, deflated (raw
   * zlib stream, base64): the screen's own `vt` is empty then.
   */
  asleep?: SleepSummary & { vt_deflate?: string };
  /**
   * Output of the running process that was read and not parsed yet (base64;
   * version 3): the new skiffd parses it first, after `screen`, before
   * anything it reads from `fd`.
   */
  waiting?: string;
  /**
   * The older lines of a busy pane's history, apart from
   * {@linkcode HandedPane.screen}, which holds the newer ones (version 4;
   * see `lib/screen/history_aside.ts`): the new skiffd builds them under
   * the screen when something first reads them.
   */
  history_aside?: HistoryAsideText;
}

/** The whole handoff (see the module's description). */
export interface Handoff {
  /** Always `skiff-handoff`. */
  format: "skiff-handoff";
  /** The format's version ({@linkcode HANDOFF_VERSION}). */
  version: number;
  /** The upgrade's id, chosen by the client, under which its outcome is told. */
  id: string;
  /** The skiffd that hands over. */
  from: {
    /** Its Skiff version. */
    version: string;
    /** Its protocol. */
    protocol: number;
    /** Its command line: what runs it again if the new program fails. */
    argv: string[];
    /** Its pid (the new program runs in the same process). */
    pid: number;
  };
  /** The socket it serves. */
  socket: string;
  /** When the first skiffd of this process started (ISO 8601). */
  started: string;
  /** When the panes were frozen (ms since the epoch). */
  frozen_at: number;
  /** The fault asked for ({@linkcode UPGRADE_FAULT_ENV}), if any. */
  fault: UpgradeStep | null;
  /** Descriptors kept open across the exec. */
  fds: {
    /** The listening socket. */
    listener: number;
    /** The lock file, which holds skiffd's lock. */
    lock: number;
  };
  /** The event run. */
  events: SavedEvents;
  /** The workspace and what it kept in memory. */
  workspace: WorkspaceMemory;
  /** Each pane, in the workspace's order. */
  panes: HandedPane[];
  /** The watcher's remembered lines, by pane. */
  told: Record<string, string[]>;
  /** Other children of this process (the watcher, panes killed in their grace), to wait for. */
  children: number[];
  /** How long the steps before the handoff took (ms), for the outcome. */
  timings: Record<string, number>;
}

/** The handoff file of upgrade `id` beside the socket. */
export function handoffFile(files: RuntimeFiles, id: string): string {
  return join(files.dir, `${files.stem}.handoff-${id}.json`);
}

/**
 * Writes the handoff (mode 0600) atomically. Not flushed to the disk: the
 * next program reads it from the page cache a moment later, and after a
 * power cut there would be no pane left to hand over (a flush of the 13 MB
 * of 1,000 panes took 20–50 ms on an idle machine, and the upgrade writes
 * two).
 */
export function writeHandoff(path: string, handoff: Handoff): void {
  writeFileAtomic(path, JSON.stringify(handoff), { mode: 0o600, sync: false });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPane(value: unknown): value is HandedPane {
  if (!isRecord(value)) return false;
  const running = Number.isInteger(value.pid) && Number.isInteger(value.fd);
  const exited = value.pid === null && value.fd === null;
  return typeof value.id === "string" && (running || exited) && isScreenState(value.screen) &&
    typeof value.state_since === "number" && typeof value.person_inputs === "number" &&
    (value.asleep === undefined || isSleepSummary(value.asleep)) &&
    (value.waiting === undefined || typeof value.waiting === "string") &&
    (value.history_aside === undefined || isAsideText(value.history_aside));
}

function isAsideText(value: unknown): value is HistoryAsideText {
  return isRecord(value) && typeof value.vt === "string" && Number.isInteger(value.lines) &&
    (value.lines as number) >= 0;
}

/** Whether `value` looks like a sleeping screen's summary (its view's rows above all). */
function isSleepSummary(value: unknown): value is SleepSummary {
  if (!isRecord(value) || !isRecord(value.view)) return false;
  const rows = value.view.rows;
  return Array.isArray(rows) &&
    rows.every((row) => isRecord(row) && typeof row.text === "string") &&
    typeof value.bells === "number" && typeof value.alternate === "boolean" &&
    (value.vt_deflate === undefined || typeof value.vt_deflate === "string");
}

/**
 * Reads and checks a handoff file. Throws one clear line when it is not a
 * handoff, is of a version this build does not read, or is not whole.
 */
export function readHandoff(path: string): Handoff {
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    throw new Error(`cannot read the handoff ${path}: ${(error as Error).message}`);
  }
  if (!isRecord(raw) || raw.format !== "skiff-handoff") {
    throw new Error(`${path} is not a skiffd handoff`);
  }
  if (typeof raw.version !== "number" || !HANDOFF_READS.includes(raw.version)) {
    throw new Error(
      `the handoff is of version ${raw.version}, and this skiff reads ${HANDOFF_READS.join(", ")}`,
    );
  }
  const h = raw as unknown as Handoff;
  const whole = typeof h.id === "string" && isRecord(h.from) && Array.isArray(h.from.argv) &&
    typeof h.socket === "string" && isRecord(h.fds) && Number.isInteger(h.fds.listener) &&
    Number.isInteger(h.fds.lock) && isRecord(h.events) && typeof h.events.run === "string" &&
    Array.isArray(h.events.backlog) && isRecord(h.workspace) && isRecord(h.workspace.data) &&
    Array.isArray(h.workspace.data.panes) && Array.isArray(h.panes) && h.panes.every(isPane) &&
    isRecord(h.told) && Array.isArray(h.children);
  if (!whole) throw new Error("the handoff is not whole");
  const handed = new Set(h.panes.map((p) => p.id));
  const missing = h.workspace.data.panes.find((p) => !handed.has(p.id));
  if (missing) throw new Error(`the handoff has no process or screen for pane ${missing.id}`);
  return h;
}

/**
 * The children of this process (every thread's), except `but`: what a new
 * program in the same process must wait for besides the panes.
 */
export function otherChildren(but: Set<number>): number[] {
  const children: number[] = [];
  try {
    for (const task of Deno.readDirSync("/proc/self/task")) {
      const text = Deno.readTextFileSync(`/proc/self/task/${task.name}/children`);
      for (const word of text.trim().split(/\s+/)) {
        const pid = Number(word);
        if (pid > 0 && !but.has(pid)) children.push(pid);
      }
    }
  } catch {
    // No /proc: nothing known to wait for.
  }
  return children;
}
