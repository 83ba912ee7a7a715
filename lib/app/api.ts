/**
 * What the page and the app server say to each other over the page's
 * WebSocket: the page asks (`{id, method, params}`) and the server answers
 * (`{id, result}` or `{id, error}`); skiffd's events come as they are
 * (`{event, …}`, see `lib/protocol/events.ts`).
 *
 * Types only: the page's bundle imports them, and they vanish from it.
 *
 * @module
 */

import type { Event } from "../protocol/events.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { ResultOf } from "../protocol/methods.ts";
import type { MoveOutcome, SettingsReport, StartOutcome } from "../skipper/mod.ts";
import type { LedgerView, SkipperSettings, WorkspaceView } from "../overview/view.ts";
import type { LandResult } from "../protocol/land.ts";
import type { DiffStat, LandedInfo } from "../protocol/worktrees.ts";
import type { FileChange as WorktreeFileChange } from "../worktree/mod.ts";

export type { LedgerView, SkipperSettings, WorkspaceView };

/** What opening the Skiff agent's row did (what `skiff skipper` does before it attaches). */
export interface SkipperOpened {
  /** Its pane, to show. */
  pane: PaneInfo;
  /** Whether the session was found, adopted or made. */
  how: "found" | "adopted" | "created";
  /** Whether a start line went in. */
  start: StartOutcome;
}

/** Settings › Skiff agent: the settings with the agents to choose from. */
export interface SettingsView extends SettingsReport {
  /** The known agents, for the agent control. */
  agents: { id: string; label: string }[];
}

/** A move of the Skiff agent's folder (or its dry run), with the words that say what it does. */
export interface MoveView {
  /** What it did, or would do. */
  outcome: MoveOutcome;
  /** The lines `skiff skipper --move-to` prints. */
  lines: string[];
}

/** One file of a worktree's diff, as `skiff diff --json` lists it. */
export type DiffFile = WorktreeFileChange;

/** The Diff view: a pane's worktree against its base, as `skiff diff` shows it. */
export interface DiffView {
  /** The pane. */
  pane: { id: string; name: string };
  /** Its worktree, as last counted. */
  worktree: {
    name: string;
    branch: string;
    base: string;
    path: string;
    ahead: number | null;
    behind: number | null;
    landed: LandedInfo | null;
  };
  /** The commit compared against: where the worktree's history left the base. */
  from: string;
  /** Every changed file. */
  files: DiffFile[];
  /** Their sum. */
  stat: DiffStat;
  /** The patch (git's, no colour), cut after a whole file when it is longer than `limit`. */
  patch: string;
  /** Whether the patch was cut: the files after it are listed but not shown. */
  truncated: boolean;
  /** The longest patch the page is sent, in characters. */
  limit: number;
}

/** The page's methods: name → params and result. */
export interface ApiMethods {
  /** The sidebar's facts. */
  "workspace": { params: Record<string, never>; result: WorkspaceView };
  /** Marks a pane seen, as `skiff seen` does. */
  "seen": { params: { pane: string }; result: ResultOf<"pane.seen"> };
  /** Opens the Skiff agent, as `skiff skipper` does (starting it when needed). */
  "skipper.open": { params: Record<string, never>; result: SkipperOpened };
  /** Reads Settings › Skiff agent. */
  "settings": { params: Record<string, never>; result: SettingsView };
  /** Sets one key, with the checks of `skiff settings set`. */
  "settings.set": { params: { key: string; value: string }; result: SettingsView };
  /** Moves the Skiff agent's folder, as `skiff skipper --move-to` (and `--dry-run`) does. */
  "move": { params: { path: string; dry_run: boolean }; result: MoveView };
  /** Reads the ledger. */
  "ledger": { params: Record<string, never>; result: LedgerView };
  /** A pane's worktree diff, as `skiff diff` makes it. */
  "diff": { params: { pane: string }; result: DiffView };
  /**
   * Lands a pane's worktree, as `skiff land PANE` does (the same
   * `landWorktree`); with `dry_run`, says what it would do and changes nothing.
   */
  "land": { params: { pane: string; dry_run: boolean }; result: LandResult };
  /** Says whether the page shows the ledger, and so hears `{changed: "ledger"}`. */
  "follow": { params: { ledger: boolean }; result: { ledger: boolean } };
}

/** A page method's name. */
export type ApiMethodName = keyof ApiMethods;

/** A request from the page. */
export interface ApiRequest<M extends ApiMethodName = ApiMethodName> {
  /** Chosen by the page; echoed in the answer. */
  id: number;
  /** The method. */
  method: M;
  /** Its params. */
  params: ApiMethods[M]["params"];
}

/** An answer to the page. */
export interface ApiAnswer {
  /** The request's id. */
  id: number;
  /** The result, on success. */
  result?: unknown;
  /**
   * What went wrong: the exit code's name in lower case (`usage`, `conflict`,
   * …), one line, and the error's JSON fields (a landing's `reason`,
   * `conflicts`, `check`, …), as `--json` prints them.
   */
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/**
 * What the pages follow: `projects.toml` (the settings and projects), the
 * ledger, or the other hosts' panes (`hosts`: list the workspace again).
 */
export type Followed = "settings" | "ledger" | "hosts";

/**
 * A followed file changed: the page reads it again. Every page hears of the
 * settings; only a page that follows the ledger (`follow`) hears of it.
 */
export interface FileChange {
  /** What changed. */
  changed: Followed;
}

/** Anything the server sends on the page's WebSocket. */
export type ServerMessage = ApiAnswer | Event | FileChange;

/** How many lines of history a terminal gets when it opens a pane. */
export const TERMINAL_SCROLLBACK = 5000;
