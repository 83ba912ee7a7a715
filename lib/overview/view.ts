/**
 * Everything a list of the workspace shows (the app's sidebar, the
 * dashboard's list): the panes, sessions and projects, the watcher's health
 * and the Skiff agent's settings. Types only, so the page's bundle can use
 * them.
 *
 * @module
 */

import type { TaskJson } from "../ledger/json.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { SessionInfo } from "../protocol/sessions.ts";
import type { WatcherHealth } from "../protocol/watch.ts";

/** The Skiff agent as a list shows it: from its settings. */
export interface SkipperSettings {
  /** Whether it is on. */
  enabled: boolean;
  /** Its name. */
  name: string;
  /** The agent it runs. */
  agent: string;
}

/** A pane of another host, as a list keeps it: `id` is `HOST:ID`, `host` its host. */
export type HostPane = PaneInfo & { host: string };

/** One other host as a list shows it (see `hosts.ts`). */
export interface HostView {
  /** The host's name. */
  host: string;
  /** `up` (its panes are known), `down` (it cannot be reached) or `unknown` (not yet). */
  state: "unknown" | "up" | "down";
  /** Why it cannot be reached, when it cannot. */
  why: string | null;
  /** Its panes, keyed `HOST:ID`. */
  panes: HostPane[];
}

/** Everything a list of the workspace shows. */
export interface WorkspaceView {
  /** Every pane. */
  panes: PaneInfo[];
  /** Every session. */
  sessions: SessionInfo[];
  /** The projects of `projects.toml`. */
  projects: { name: string; root: string }[];
  /** The watcher's health. */
  watcher: WatcherHealth;
  /** The Skiff agent's settings (the last good ones while `projects.toml` is broken). */
  skipper: SkipperSettings;
  /** Why `projects.toml` cannot be read (the line the CLI prints), or null. */
  config_error: string | null;
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
