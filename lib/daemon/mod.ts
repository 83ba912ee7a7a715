/**
 * skiffd: the daemon that owns panes, their screens and the workspace.
 *
 * @module
 */

export { type DaemonOutcome, runDaemon } from "./run.ts";

export { NAME_PATTERN } from "./live_workspace.ts";
