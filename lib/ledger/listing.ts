/**
 * Building what `ls` and `show` print from the stored rows: shown states,
 * plans with their tasks, and filters. Pure functions over rows.
 *
 * @module
 */

import type { Entry, ListResult, ListRow, TaskRow } from "./rows.ts";
import {
  isOpen,
  type Liveness,
  planShownState,
  type ShownState,
  taskShownState,
} from "./states.ts";

/** Which rows {@linkcode buildList} keeps. */
export interface ListFilter {
  /**
   * Keep rows that show one of these states. When given, it replaces the
   * default of open rows only, so `state: "done"` lists done rows.
   */
  state?: ShownState | readonly ShownState[];
  /**
   * Keep tasks on this pane, named by pane id or by the stored pane name;
   * `HOST:PANE` for a pane on another host.
   */
  pane?: string;
  /** Keep only this plan (a ref) and its tasks. The plan itself is always listed. */
  plan?: string;
  /** Keep done rows too. Without it (and without `state`), only open rows are kept. */
  all?: boolean;
}

/** {@linkcode ListFilter} with the plan already resolved to a row id. */
export interface ResolvedFilter extends Omit<ListFilter, "plan"> {
  /** The row id of the plan to keep, or `null` for every plan. */
  planId: number | null;
}

/** A pane filter split as `HOST:PANE` (the first colon ends the host) or a local pane. */
export function paneFilter(text: string): { host: string | null; pane: string } {
  const colon = text.indexOf(":");
  return colon <= 0
    ? { host: null, pane: text }
    : { host: text.slice(0, colon), pane: text.slice(colon + 1) };
}

/** Groups the tasks of each plan by the plan's row id. Tasks of no (existing) plan are not in it. */
function tasksByPlan<R extends ListRow>(rows: readonly R[]): Map<number, R[]> {
  const plans = new Map<number, R[]>();
  for (const row of rows) if (row.kind === "plan") plans.set(row.id, []);
  for (const row of rows) {
    if (row.kind === "task" && row.parentId !== null) plans.get(row.parentId)?.push(row);
  }
  return plans;
}

/** The shown entry of one row; a plan gets all of its tasks. */
export function entryOf(row: TaskRow, rows: readonly TaskRow[], liveness: Liveness): Entry {
  if (row.kind === "task") return { row, state: taskShownState(row, liveness) };
  const tasks = rows.filter((r) => r.kind === "task" && r.parentId === row.id)
    .sort((a, b) => a.id - b.id)
    .map((t) => ({ row: t, state: taskShownState(t, liveness) }));
  return { row, state: planShownState(row, tasks.map((t) => t.row)), tasks };
}

/**
 * Lists rows as plans (each with its matching tasks under it) and tasks
 * without a plan, in row id order.
 *
 * A task is kept when it passes every filter. A plan is kept when it passes
 * the state filter itself (a pane filter never matches a plan), or when any
 * of its tasks is kept; its `tasks` then hold only the kept tasks. The plan a
 * `plan` filter names is always kept.
 */
export function buildList<R extends ListRow>(
  rows: readonly R[],
  filter: ResolvedFilter,
  liveness: Liveness,
): ListResult<R> {
  const states = filter.state === undefined
    ? null
    : new Set<ShownState>(typeof filter.state === "string" ? [filter.state] : filter.state);
  const stateOk = (s: ShownState) => states ? states.has(s) : filter.all === true || isOpen(s);
  const wanted = filter.pane === undefined ? undefined : paneFilter(filter.pane);
  const paneOk = (r: R) =>
    wanted === undefined ||
    ((r.host ?? null) === wanted.host && (r.pane === wanted.pane || r.paneName === wanted.pane));
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  const plans = tasksByPlan(sorted);
  const entries: Entry<R>[] = [];
  for (const row of sorted) {
    if (row.kind === "task") {
      if (row.parentId !== null && plans.has(row.parentId)) continue;
      if (filter.planId !== null) continue;
      const state = taskShownState(row, liveness);
      if (stateOk(state) && paneOk(row)) entries.push({ row, state });
      continue;
    }
    if (filter.planId !== null && row.id !== filter.planId) continue;
    const all = plans.get(row.id)!;
    const state = planShownState(row, all);
    const tasks = all.map((t) => ({ row: t, state: taskShownState(t, liveness) }))
      .filter((e) => stateOk(e.state) && paneOk(e.row));
    const self = filter.planId !== null || (filter.pane === undefined && stateOk(state));
    if (self || tasks.length > 0) entries.push({ row, state, tasks });
  }
  return { entries, livenessKnown: liveness !== null };
}
