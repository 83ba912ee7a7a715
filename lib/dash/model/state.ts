/**
 * What the dashboard knows and shows: the workspace as listed and then
 * folded from events, the selection, the sort and the filter, which view
 * is up (the list, the ledger, a result file, the help), a prompt being
 * typed in the status row, and the status row's last message.
 *
 * @module
 */

import type { TaskJson } from "../../ledger/json.ts";
import type { WorkspaceView } from "../../overview/view.ts";
import { AGENT_KEY, type ListRow, listRows, type Sort } from "./rows.ts";

/** Which view fills the body. */
export type Mode = "list" | "ledger" | "result" | "help";

/** A line being typed in the status row. */
export interface Prompt {
  /** What it is for. */
  kind:
    | "filter"
    | "send"
    | "rename"
    | "new-project"
    | "new-agent"
    | "new-worktree"
    | "new-name"
    | "kill"
    | "land";
  /** What the row says before the text. */
  label: string;
  /** The text typed so far. */
  text: string;
  /** The pane it is about (its id), if any. */
  pane?: string;
  /** Answers of earlier steps (a new pane's project, agent and worktree). */
  answers?: Record<string, string>;
}

/** The ledger as the ledger view shows it. */
export interface LedgerState {
  /** The ledger file. */
  path: string;
  /** Plans with their tasks, and lone tasks. */
  rows: TaskJson[];
  /** Why it could not be read, or null. */
  problem: string | null;
}

/** A result file being read. */
export interface ResultState {
  /** Its path. */
  path: string;
  /** Its lines. */
  lines: string[];
  /** The first line shown. */
  top: number;
}

/** The dashboard's state. */
export interface DashState {
  /** The workspace, once listed. */
  view: WorkspaceView | undefined;
  /** How the list is ordered. */
  sort: Sort;
  /** The filter's text. */
  filter: string;
  /** The selected row's key: `agent` or a pane's id. */
  selected: string;
  /** The first list row shown. */
  listTop: number;
  /** The view up. */
  mode: Mode;
  /** A prompt in the status row, or null. */
  prompt: Prompt | null;
  /** The status row's message, or null for the key hints. */
  status: { text: string; tone: "info" | "error" } | null;
  /** How the connection to skiffd stands. */
  link: "live" | "reconnecting";
  /** The ledger, once read. */
  ledger: LedgerState | undefined;
  /** The selected ledger row's uid. */
  ledgerSelected: string | null;
  /** The first ledger row shown. */
  ledgerTop: number;
  /** The result file shown, if any. */
  result: ResultState | null;
  /** The time the frame is drawn at (ms), for the ages of states. */
  now: number;
  /** The key that comes back from an opened pane, as a person presses it (`[attach] detach_key`). */
  detachKey: string;
  /** The pane whose worktree is being landed (`L`), or null. */
  landing: string | null;
}

/** A fresh state. */
export function initialState(): DashState {
  return {
    view: undefined,
    sort: "tree",
    filter: "",
    selected: AGENT_KEY,
    listTop: 0,
    mode: "list",
    prompt: null,
    status: null,
    link: "live",
    ledger: undefined,
    ledgerSelected: null,
    ledgerTop: 0,
    result: null,
    now: Date.now(),
    detachKey: "Ctrl+\\",
    landing: null,
  };
}

/** The list's rows now. */
export function rowsOf(state: DashState): ListRow[] {
  if (!state.view) return [];
  return listRows(state.view, { sort: state.sort, filter: state.filter });
}

/** The selected row, after making sure the selection names a row that is shown. */
export function selectedRow(
  state: DashState,
  rows: ListRow[] = rowsOf(state),
): ListRow | undefined {
  const found = rows.find((row) => row.key === state.selected);
  if (found) return found;
  // The selected pane went (or the filter hides it): keep the place, on the agent's row.
  state.selected = AGENT_KEY;
  return rows[0];
}

/** Moves the selection `delta` selectable rows (clamped). */
export function moveSelection(state: DashState, delta: number): void {
  const keys = rowsOf(state).flatMap((row) => row.key === null ? [] : [row.key]);
  if (keys.length === 0) return;
  const at = Math.max(0, keys.indexOf(state.selected));
  state.selected = keys[Math.max(0, Math.min(keys.length - 1, at + delta))];
}

/** Keeps `top` so that row `index` shows in a box `height` rows high. */
export function scrollTo(top: number, index: number, height: number): number {
  if (height <= 0) return 0;
  if (index < top) return index;
  if (index >= top + height) return index - height + 1;
  return top;
}

/** The ledger's rows in listing order: each plan, then its tasks. */
export function ledgerLines(ledger: LedgerState | undefined): { row: TaskJson; nested: boolean }[] {
  if (!ledger) return [];
  return ledger.rows.flatMap((row) => [
    { row, nested: false },
    ...(row.tasks ?? []).map((task) => ({ row: task, nested: true })),
  ]);
}

/** Selects the first pane of the list (the Skiff agent's row when there is none). */
export function selectFirstPane(state: DashState, rows: ListRow[] = rowsOf(state)): void {
  const first = rows.find((row) => row.kind === "pane");
  state.selected = first?.key ?? AGENT_KEY;
}
