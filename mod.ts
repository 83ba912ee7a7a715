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
 * @example Sending a ledger task to its pane, with every guard of `skiff send`
 * ```ts
 * import { agentLedgerPath, deliverTask, openLedger } from "./mod.ts";
 * using ledger = openLedger(agentLedgerPath());
 * const delivery = await deliverTask(ledger, "7c2e91ab", { enter: true });
 * console.log(delivery.row.state, delivery.exit);
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
  type CallArgs,
  type CallOptions,
  connectDaemon,
  ConnectionClosed,
  type ConnectOptions,
  DaemonClient,
  restartDaemon,
  type RestartOutcome,
  startDaemon,
  stopDaemon,
  type StopOutcome,
  tryConnect,
  withDaemon,
} from "./lib/client/mod.ts";
export {
  agentLedgerPath,
  currentGeneration,
  type DeliverOptions,
  deliverTask,
  type Delivery,
  type LivenessReport,
  lookUpPane,
  readLiveness,
  taskMessage,
} from "./lib/tasks/mod.ts";
export type * from "./lib/protocol/mod.ts";
export { Exit, type ExitName, SkiffError } from "./lib/errors.ts";
export * from "./lib/ledger/mod.ts";
