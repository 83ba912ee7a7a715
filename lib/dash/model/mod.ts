/**
 * What the dashboard knows and shows: its state (the workspace as listed,
 * the selection, the sort and filter, the view, a prompt), the list as
 * rows, and what a key may ask of the dashboard.
 *
 * @module
 */

export { attempt, type DashActions, failure, label, say, startPrompt } from "./actions.ts";
export { AGENT_KEY, type ListRow } from "./rows.ts";
export {
  type DashState,
  initialState,
  ledgerLines,
  type LedgerState,
  moveSelection,
  type Prompt,
  rowsOf,
  scrollTo,
  selectedRow,
  selectFirstPane,
} from "./state.ts";
