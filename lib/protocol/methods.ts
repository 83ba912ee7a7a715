/**
 * The whole method catalogue: every method's name, params and result, from
 * the domain files. skiffd's method table and the client's `call` are both
 * typed against it.
 *
 * @module
 */

import type { AgentMethods } from "./agents.ts";
import type { AppMethods } from "./app.ts";
import type { DaemonMethods } from "./daemon.ts";
import type { HostMethods } from "./hosts.ts";
import type { PaneMethods } from "./panes.ts";
import type { SessionEnsureMethods } from "./session_ensure.ts";
import type { SessionMethods } from "./sessions.ts";
import type { WatchMethods } from "./watch.ts";
import type { WorkspaceMethods } from "./workspace.ts";
import type { WorktreeMethods } from "./worktrees.ts";

/** Every method: name → `{params, result}`. */
export interface Methods
  extends
    PaneMethods,
    AgentMethods,
    SessionMethods,
    SessionEnsureMethods,
    DaemonMethods,
    WatchMethods,
    WorktreeMethods,
    WorkspaceMethods,
    AppMethods,
    HostMethods {}

/** A method's name. */
export type MethodName = keyof Methods;

/** The params of method `M`. */
export type ParamsOf<M extends MethodName> = Methods[M]["params"];

/** The result of method `M`. */
export type ResultOf<M extends MethodName> = Methods[M]["result"];
