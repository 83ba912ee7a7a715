/**
 * The contract between skiffd and its clients: the wire format (JSON lines
 * and attach frames), every method with its params and result, and every
 * event. One file per domain: panes, agents, sessions, daemon, events.
 *
 * @module
 */

export * from "./messages.ts";
export * from "./frames.ts";
export * from "./methods.ts";
export * from "./panes.ts";
export * from "./agents.ts";
export * from "./sessions.ts";
export * from "./session_ensure.ts";
export * from "./daemon.ts";
export * from "./events.ts";
export * from "./watch.ts";
export * from "./app.ts";
export * from "./hosts.ts";
export * from "./worktrees.ts";
export * from "./land.ts";
export * from "./workspace.ts";
export * from "./workspace_order.ts";
