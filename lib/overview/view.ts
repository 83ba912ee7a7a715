/**
 * Everything a list of the workspace shows (the app's sidebar, the
 * dashboard's list): the panes, sessions and projects, the watcher's health
 * and the Skiff agent's settings. Types only, so the page's bundle can use
 * them.
 *
 * @module
 */

import type { TaskJson } from "../ledger/json.ts";
import type { ListedPane, SkipperSettings, WorkspaceListing } from "../protocol/workspace.ts";

export type { ListedPane, SkipperSettings };

/** A pane of another host, as a list keeps it: `id` is `HOST:ID`, `host` its host. */
export type HostPane = ListedPane & { host: string };

/** One other host as a list shows it (see `hosts.ts`). */
export interface HostView {
  /** The host's name. */
  host: string;
  /** `up` (its panes are known), `down` (it cannot be reached) or `unknown` (not yet). */
  state: "unknown" | "up" | "down";
  /** Why it cannot be reached, when it cannot. */
  why: string | null;
  /**
   * When it cannot be reached: when it was last reached and when its link is tried next
   * (`last reached 14:02:11, next try at 14:03:05`), so an old failure does not read as current.
   */
  when?: string | null;
  /** Its panes, keyed `HOST:ID`. */
  panes: HostPane[];
}

/** Everything a list of the workspace shows: skiffd's listing and the other hosts. */
export interface WorkspaceView extends WorkspaceListing {
  /** The other hosts of `projects.toml`, each with its panes (absent: not followed). */
  hosts?: HostView[];
}

/** The ledger as the app and the dashboard show it. */
export interface LedgerView {
  /** The ledger file. */
  path: string;
  /** Whether it exists yet. */
  exists: boolean;
  /** Whether interrupted and gone could be worked out. */
  liveness: "known" | "unknown";
  /** Why a change to the ledger would fail now (read-only, or locked by another process), or null. */
  problem: string | null;
  /** Every row, done ones too; each plan with its tasks. */
  rows: TaskJson[];
}
