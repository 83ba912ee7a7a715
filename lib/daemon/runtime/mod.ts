/**
 * skiffd's files beside its socket: its hold on the socket's path and lock
 * (taken back when a cleaned folder took them), its log, and the `skiff`
 * shim on every pane's PATH. The lowest sub-room of `lib/daemon`: it knows
 * nothing of panes.
 *
 * @module
 */

export { DaemonLog, logLine } from "./daemon_log.ts";
export { type HeldLock, Ownership, socketAnswers } from "./ownership.ts";
export { writeSkiffShim } from "./shim.ts";
