/**
 * Skiff as a library: talk to skiffd, and read and write the task ledger,
 * from your own Deno program, with the same rules as the `skiff` command.
 *
 * @example Listing panes
 * ```ts
 * import { withDaemon } from "./mod.ts";
 * const { panes } = await withDaemon((client) => client.call("pane.list"));
 * ```
 *
 * @example Adding a plan to the ledger
 * ```ts
 * import { ledgerPath, openLedger } from "./mod.ts";
 * using ledger = openLedger(ledgerPath());
 * const plan = ledger.add({ task: "Release 2.0" });
 * console.log(plan.uid, plan.result);
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
export type * from "./lib/protocol/mod.ts";
export { Exit, type ExitName, SkiffError } from "./lib/errors.ts";
export * from "./lib/ledger/mod.ts";
