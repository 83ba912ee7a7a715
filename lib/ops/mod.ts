/**
 * The operations under the CLI, the MCP server and the app: one function
 * per thing a person or a program does to the workspace (start a pane,
 * list, read, wait, send, mark seen, kill, read and change the ledger), each
 * returning exactly what the matching `skiff … --json` prints, and failing
 * with the same `SkiffError` (exit name and reason). A command parses its
 * arguments, calls one of these and prints; a tool checks its gate and
 * input, calls one and hands the result on.
 *
 * Each takes `access` (where skiffd connections come from: by default one
 * made for the call, as a command wants; `skiff mcp` keeps its own) and,
 * for the panes and the ledger, `project` (a scope: any other project's
 * pane or row is `NOT_FOUND`).
 *
 * @module
 */

export {
  DEFAULT_READY_MS,
  newPane,
  type NewPaneOptions,
  type NewPaneResult,
  type NewPaneSize,
  startsFromFolder,
} from "./new_pane.ts";
export {
  LIST_WAIT_MS,
  type ListedHost,
  type ListedPane,
  listPanes,
  type ListPanesOptions,
  type ListPanesResult,
  parseMark,
} from "./list_panes.ts";
export { capturePane, type CapturePaneOptions } from "./capture_pane.ts";
export {
  WAIT_STATES,
  waitForPane,
  type WaitForPaneOptions,
  type WaitForPaneResult,
} from "./wait_for_pane.ts";
export {
  paneDiff,
  type PaneDiffOptions,
  type PaneDiffRead,
  type PaneDiffResult,
  readPaneDiff,
} from "./pane_diff.ts";
export { checkSendText, sendToPane, type SendToPaneOptions } from "./send_to_pane.ts";
export { markSeen, type MarkSeenOptions, type MarkSeenResult } from "./mark_seen.ts";
export { landPane, type LandPaneOptions } from "./land_pane.ts";
export { killPane, type KillPaneResult } from "./kill_pane.ts";
export { checkScope, outOfScope, type PaneOpOptions } from "./scope.ts";
export { type LedgerOpOptions, rowsInScope, scopePanes } from "./ledger_scope.ts";
export {
  ledgerList,
  type LedgerListing,
  ledgerListing,
  type LedgerListResult,
} from "./ledger_list.ts";
export { ledgerShow, type LedgerShowResult } from "./ledger_show.ts";
export {
  ledgerAdd,
  type LedgerAddInput,
  ledgerAddInput,
  type LedgerAddOptions,
  type LedgerAddResult,
} from "./ledger_add.ts";
export {
  checkChanges,
  type LedgerChanges,
  ledgerUpdate,
  type LedgerUpdateOptions,
  type LedgerUpdateResult,
} from "./ledger_update.ts";
export {
  deliveryResult,
  ledgerSend,
  type LedgerSendOptions,
  type LedgerSendResult,
  TaskNotSent,
} from "./ledger_send.ts";
