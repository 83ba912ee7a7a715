/**
 * A pane's tasks from the ledger, as the dashboard's preview and the app's
 * pane header show them: uid, shown state (`interrupted` and `gone`
 * included), the task's first line and its result path.
 *
 * @module
 */

import type { TaskJson } from "../ledger/json.ts";

/** One task of a pane, in brief. */
export interface TaskSummary {
  /** The task's uid. */
  uid: string;
  /** The shown state: `sent`, `pending`, `blocked`, `done`, `landed`, `interrupted`, `gone`, …. */
  state: string;
  /** The first line of the task's text. */
  first: string;
  /** The result file's path. */
  result: string;
}

/** Every task of the ledger listing `rows` (plans hold theirs), in the listing's order. */
export function allTasks(rows: readonly TaskJson[]): TaskJson[] {
  return rows.flatMap((row) => row.kind === "plan" ? row.tasks ?? [] : [row]);
}

/** The first line of `text`, without surrounding blanks. */
export function firstLine(text: string): string {
  return text.trimStart().split("\n", 1)[0].trimEnd();
}

/**
 * The tasks of pane `pane` (its id) in `rows`: open ones (not done) first,
 * each group in the listing's order. `host` is the pane's host (null, the
 * default, for this machine): a pane of another host may have the same id.
 */
export function paneTasks(
  rows: readonly TaskJson[],
  pane: string,
  host: string | null = null,
): TaskSummary[] {
  const mine = allTasks(rows).filter((row) => row.pane === pane && (row.host ?? null) === host);
  // Landed tasks are done ones: after the open ones, with them. (Not `isOpen` from the ledger:
  // the dashboard's first frame loads nothing of the ledger's.)
  const closed = (row: TaskJson) => row.state === "done" || row.state === "landed";
  const open = mine.filter((row) => !closed(row));
  const done = mine.filter(closed);
  return [...open, ...done].map((row) => ({
    uid: row.uid,
    state: row.state,
    first: firstLine(row.task),
    result: row.result,
  }));
}
