/**
 * What a live workspace is given (its files, event stream, log and the
 * panes' worktrees) and what it hands on across an upgrade: the parts of
 * its contract that other modules name without needing the workspace.
 *
 * @module
 */

import type { TrackerState } from "../../agents/tracker.ts";
import type { EventBus, SavedPane, WorkspaceData } from "../records/mod.ts";
import type { DoomedSession, Pane, PaneAdoptOptions, PaneWorktreeView } from "../panes/mod.ts";
import type { EndedSessions } from "./session_endings.ts";

/**
 * What the workspace asks of the worktrees a pane may have (`lib/worktree`
 * answers): a pane keeps only its worktree's id.
 */
export interface PaneWorktrees {
  /** What the pane's description shows of worktree `id`, or null. */
  paneView(id: string | undefined): PaneWorktreeView | null;
  /** The folder of worktree `id`, for a restored pane whose last folder is gone. */
  folderOf(id: string | undefined): string | undefined;
}

/** What a workspace keeps only in memory (see `LiveWorkspace.memory`). */
export interface WorkspaceMemory {
  /** The workspace as saved, with every change (also one a full disk kept from the file). */
  data: WorkspaceData;
  /** The last generation given, so the next one is later. */
  last_generation: number;
  /** Which sessions told their end, and those removed whose end is still to be told. */
  endings: EndedSessions;
  /** Killed panes whose leftovers are still to be ended. */
  doomed: DoomedSession[];
}

/** Options for `LiveWorkspace`. */
export interface LiveWorkspaceOptions {
  /** Where the workspace is saved. */
  file: string;
  /** The socket path, given to panes as `SKIFF_SOCKET`. */
  socket: string;
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** A folder put first on every pane's PATH (it holds the `skiff` script). */
  binDir?: string;
  /**
   * Whether this skiffd may still write the workspace file: false once
   * another skiffd owns the socket's path (and so the file).
   */
  mayWrite?: () => boolean;
  /** The folder of the panes' saved screens (see `screen_store.ts`). */
  screens: string;
  /** The worktrees of the panes. */
  worktrees?: PaneWorktrees;
}

/**
 * Builds the pane a skiffd before this one ran (see `LiveWorkspace.adopt`)
 * from its record and the workspace's hooks and scrollback, with its agent
 * tracker's state when it had one.
 */
export type MakeAdopted = (
  saved: SavedPane,
  base: Pick<PaneAdoptOptions, "hooks" | "scrollback">,
) => { pane: Pane; tracker?: TrackerState; screenSave?: AdoptedScreenSave };

/** Where an adopted pane's saved screen stood in the skiffd before (unknown: save it again). */
export interface AdoptedScreenSave {
  /** The screen changed since it was last saved. */
  unsaved: boolean;
  /** What its history file holds. */
  history: { bytes: number; lines: number };
}
