/**
 * Panes: one process on a PTY each, with its screen, the terminals attached
 * to it, its environment and size, the fair scheduling of its output, the
 * ending of its processes, and its agent: the watch that reads its state,
 * waits on it, and types into it only while the guards hold.
 *
 * @module
 */

export { AgentWatches, paneEventFields } from "./agent_watches.ts";
export { checkNewPane, type NewPaneRequest, planNewPane } from "./new_pane.ts";
export { Pane, type PaneAdoptOptions, type PaneHooks } from "./pane.ts";
export { checkProgram, clampSize, paneEnv } from "./pane_env.ts";
export { listedPane, paneInfo, type PaneWorktreeView } from "./pane_info.ts";
export { type AttachEndDetails, type PaneListener } from "./pane_listeners.ts";
export { preparePanes } from "./pane_process.ts";
export { waitForState } from "./pane_wait.ts";
export { type PaneWatch } from "./pane_watch.ts";
export { type DoomedSession, SessionReaper } from "./reaper.ts";
export { guardedSend } from "./send.ts";
