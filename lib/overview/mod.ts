/**
 * What the app and the dashboard both show, computed once: the attention
 * order, the watcher's health in looks and words, the Skiff agent's pane, a
 * pane's tasks from the ledger, reading the workspace, and folding skiffd's
 * events into a live list of panes.
 *
 * The page's bundle imports the pure modules directly (everything here but
 * `workspace.ts`).
 *
 * @module
 */

export * from "./attention.ts";
export * from "./fold.ts";
export * from "./skiff_agent.ts";
export * from "./tasks.ts";
export * from "./view.ts";
export * from "./watcher.ts";
export { WorkspaceReader } from "./workspace.ts";
export { type ReadLedgerOptions, readLedgerView } from "./ledger.ts";
export { hostPane, HostsFollow } from "./hosts.ts";
