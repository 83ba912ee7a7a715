/**
 * The tasks a worktree's branch carries, and their landed marks: which
 * delivered tasks were sent on the branch, and the SQL that marks them
 * landed once `skiff land` put the branch on its base. {@linkcode Ledger}
 * runs these inside its own transactions.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { clearNote } from "./notes.ts";

/**
 * Which tasks were sent on a worktree's branch: those whose send stored the
 * worktree's id, and (sent before the ledger kept that) those sent to one of
 * its panes while it was on its branch. Only delivered tasks count: stored
 * `sent` or `done`, never pending or blocked ones, whose text no agent took.
 */
export interface WorktreeTasks {
  /** The host of its panes, or null on this machine. */
  host: string | null;
  /** The worktree's id. */
  worktree: string;
  /** Its branch. */
  branch: string;
  /** The panes that were in it (ids). */
  panes: readonly string[];
}

/** The `WHERE` of the tasks sent on a worktree's branch that have not landed yet, and its values. */
export function onWorktree(match: WorktreeTasks): { where: string; values: (string | null)[] } {
  const panes = match.panes.map(() => "?").join(", ");
  return {
    where: `t.pane IS NOT NULL AND t.state IN ('sent', 'done') AND t.landed_at IS NULL
      AND t.host IS ? AND (t.worktree = ?${
      panes ? ` OR (t.worktree IS NULL AND t.branch = ? AND t.pane IN (${panes}))` : ""
    })`,
    values: [match.host, match.worktree, ...(panes ? [match.branch, ...match.panes] : [])],
  };
}

/**
 * Marks each task sent on a worktree's branch that has not landed yet
 * `landed`: done (its `done_at` kept when it had one), with the base and its
 * tips before and after, at `stamp`. Call inside a write transaction.
 * Returns the row ids marked, in order.
 */
export function markLandedRows(
  db: DatabaseSync,
  match: WorktreeTasks,
  landing: { into: string; from: string; to: string },
  stamp: string,
): number[] {
  const { where, values } = onWorktree(match);
  const ids = db.prepare(`SELECT t.id FROM tasks t WHERE ${where} ORDER BY t.id`)
    .all(...values).map((r) => Number(r.id));
  const mark = db.prepare(
    `UPDATE tasks SET state = 'done', done_at = coalesce(done_at, ?), landed_into = ?,
     landed_from = ?, landed_to = ?, landed_at = ?, updated_at = ? WHERE id = ?`,
  );
  for (const id of ids) {
    mark.run(stamp, landing.into, landing.from, landing.to, stamp, stamp, id);
    clearNote(db, id);
  }
  return ids;
}
