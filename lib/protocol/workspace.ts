/**
 * The workspace method of the protocol: everything a list of the whole
 * workspace shows (the dashboard's list, the app's sidebar) in one answer:
 * the panes, the sessions, the watcher's health, and the projects and the
 * Skiff agent's settings as skiffd read them from `projects.toml`.
 *
 * @module
 */

import type { PaneInfo } from "./panes.ts";
import type { SessionInfo } from "./sessions.ts";
import type { WatcherHealth } from "./watch.ts";

/**
 * A pane as a listing of the whole workspace describes it: every field of
 * {@linkcode PaneInfo} but the process in front, which costs skiffd a look
 * in `/proc` per pane and which no list shows (`pane.get` and `skiff ls`
 * have it).
 */
export type ListedPane = Omit<PaneInfo, "foreground">;

/** The Skiff agent as a list shows it: from its settings. */
export interface SkipperSettings {
  /** Whether it is on. */
  enabled: boolean;
  /** Its name. */
  name: string;
  /** The agent it runs. */
  agent: string;
}

/** A project of `projects.toml`, as a list shows it. */
export interface ListedProject {
  /** Its name. */
  name: string;
  /** Its root folder. */
  root: string;
}

/** What `workspace.list` answers. */
export interface WorkspaceListing {
  /** Every pane. */
  panes: ListedPane[];
  /** Every session. */
  sessions: SessionInfo[];
  /** The projects of `projects.toml` (the last good ones while it is broken). */
  projects: ListedProject[];
  /** The watcher's health. */
  watcher: WatcherHealth;
  /** The Skiff agent's settings (the last good ones while `projects.toml` is broken). */
  skipper: SkipperSettings;
  /** Why `projects.toml` cannot be read now (the line the CLI prints), or null. */
  config_error: string | null;
  /**
   * Present when the listing was cut to a first screen (`first`): `panes` and `sessions` hold
   * only what its first rows show, and this counts the whole workspace's panes.
   */
  cut?: ListingCut;
}

/** How many panes there are, and how many work, wait or are unread. */
export interface PaneCounts {
  /** Every pane. */
  panes: number;
  /** Working ones. */
  working: number;
  /** Waiting ones. */
  waiting: number;
  /** Unread ones. */
  unread: number;
}

/** What a listing cut to a first screen says of the panes it left out. */
export interface ListingCut {
  /** Every pane of the workspace. */
  counts: PaneCounts;
  /** Each project's panes, in the list's order; `project` is null for the panes of no project. */
  projects: { project: string | null; counts: PaneCounts }[];
}

/** What `workspace.list` takes. */
export interface WorkspaceListParams {
  /**
   * Only the panes the first `first` rows of a list sorted by project show (the Skiff agent's
   * too), with the whole workspace counted in `cut`: a first screen comes sooner.
   */
  first?: number;
}

/** The workspace methods: name → params and result. */
export interface WorkspaceMethods {
  /** Lists the whole workspace in one answer (the dashboard's and the app's list). */
  "workspace.list": { params: WorkspaceListParams; result: WorkspaceListing };
}
