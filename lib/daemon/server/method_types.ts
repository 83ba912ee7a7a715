/**
 * The types every daemon method shares.
 *
 * @module
 */

import type { DaemonStatus } from "../../protocol/daemon.ts";
import type { MethodName, ResultOf } from "../../protocol/methods.ts";
import type { Connection } from "./connection.ts";
import type { EventBus } from "../records/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { Params } from "./params.ts";
import type { WatcherRegistry } from "./watcher_health.ts";
import type { UpgradeRequest } from "./upgrade_request.ts";
import type { Worktrees } from "../../worktree/mod.ts";

/** What the daemon itself offers to methods. */
export interface DaemonControl {
  /** Facts for `daemon status`. */
  status(): DaemonStatus;
  /** Stops the daemon; with `restart`, a new one is expected at once. */
  stop(options?: { restart?: boolean }): void;
  /** Re-reads the config; throws when it is broken, keeping the old one. */
  reload(): ResultOf<"daemon.reload">;
  /** Closes every client connection. */
  dropClients(): void;
  /**
   * Replaces skiffd's program in place (`skiff daemon upgrade`); returns
   * only by throwing, when it failed before the exec.
   */
  upgrade(request: UpgradeRequest): Promise<never>;
}

/** What a method receives besides its params. */
export interface MethodContext {
  /** Sessions and panes. */
  workspace: LiveWorkspace;
  /** The event stream. */
  events: EventBus;
  /** The calling connection. */
  connection: Connection;
  /** The daemon. */
  control: DaemonControl;
  /** The watcher's health. */
  watcher: WatcherRegistry;
  /** The git worktrees Skiff made for panes. */
  worktrees: Worktrees;
  /** Runs `action` once the answer has been written, such as switching the connection's mode. */
  afterReply(action: () => void): void;
}

/**
 * A method handler. Params arrive unchecked from the wire and are read
 * through `params.ts`; the result must have the protocol's shape.
 */
export type Method<M extends MethodName = MethodName> = (
  params: Params,
  ctx: MethodContext,
) => ResultOf<M> | Promise<ResultOf<M>>;

/** Handlers for the methods `M`, each typed against the protocol. */
export type MethodTable<M extends MethodName> = { [K in M]: Method<K> };
