/**
 * The types every daemon method shares.
 *
 * @module
 */

import type { Connection } from "./connection.ts";
import type { EventBus } from "./events.ts";
import type { LiveWorkspace } from "./live_workspace.ts";
import type { Params } from "./params.ts";

/** What the daemon itself offers to methods. */
export interface DaemonControl {
  /** Facts for `daemon status`. */
  status(): Record<string, unknown>;
  /** Stops the daemon. */
  stop(): void;
  /** Re-reads the config; throws when it is broken, keeping the old one. */
  reload(): Record<string, unknown>;
  /** Closes every client connection. */
  dropClients(): void;
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
  /** Runs `action` once the answer has been written, such as switching the connection's mode. */
  afterReply(action: () => void): void;
}

/** A method handler. */
export type Method = (params: Params, ctx: MethodContext) => unknown | Promise<unknown>;
