/**
 * skiffd: the daemon that owns panes, their screens and the workspace.
 *
 * @module
 */

export { type DaemonOutcome, runDaemon, type RunDaemonOptions } from "./run.ts";
export { type DaemonService, noService, type ServiceHost } from "./server/mod.ts";

export { NAME_PATTERN } from "./records/mod.ts";
