/**
 * Tasks between the ledger and the panes: delivering a task to its pane
 * (claim, guarded send, outcome), and asking skiffd which panes live.
 *
 * @module
 */

export { type DeliverOptions, deliverTask, type Delivery, taskMessage } from "./deliver.ts";
export { currentGeneration, type LivenessReport, lookUpPane, readLiveness } from "./liveness.ts";
export { agentLedgerPath } from "./ledger_file.ts";
