/**
 * Skiff as a library: talk to skiffd from your own Deno program.
 *
 * @example Listing panes
 * ```ts
 * import { withDaemon } from "./mod.ts";
 * const { panes } = await withDaemon((client) => client.call("pane.list"));
 * ```
 *
 * @module
 */

export {
  connectDaemon,
  ConnectionClosed,
  type ConnectOptions,
  DaemonClient,
  startDaemon,
  tryConnect,
  withDaemon,
} from "./lib/client/mod.ts";
export type { PaneInfo } from "./lib/daemon/mod.ts";
export { Exit, type ExitName, SkiffError } from "./lib/cli/errors.ts";
export type { EventMessage } from "./lib/protocol/messages.ts";
