/**
 * Notes on rows: why a task is blocked, in words, for `ledger show` and the
 * JSON `note` field. A note is the outcome of the last send that did not
 * end in `sent`: the text went in but no turn started, it was typed without
 * Enter, or the connection to skiffd was lost with the outcome unknown.
 *
 * The notes live in a side table that came after the rest of schema
 * version 2, made by the first write that needs it (as `send_claims` is):
 *
 * ```sql
 * CREATE TABLE IF NOT EXISTS task_notes (
 *   task_id INTEGER PRIMARY KEY, -- the row id in tasks
 *   note TEXT NOT NULL,          -- one line for people
 *   at TEXT NOT NULL             -- when it was written (ISO 8601, UTC)
 * );
 * ```
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** The statement that makes the notes table. It does nothing when the table exists. */
export const TASK_NOTES_SCHEMA = `
CREATE TABLE IF NOT EXISTS task_notes (
  task_id INTEGER PRIMARY KEY,
  note TEXT NOT NULL,
  at TEXT NOT NULL
);
`;

/** Whether the database holds the notes table. */
export function hasNotes(db: DatabaseSync): boolean {
  return db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task_notes'",
  ).get() !== undefined;
}

/** Sets a row's note, making the table when needed. Call inside a write transaction. */
export function setNote(db: DatabaseSync, taskId: number, note: string, stamp: string): void {
  db.exec(TASK_NOTES_SCHEMA);
  db.prepare("INSERT OR REPLACE INTO task_notes (task_id, note, at) VALUES (?, ?, ?)")
    .run(taskId, note, stamp);
}

/** Drops a row's note, if the table exists. Call inside a write transaction. */
export function clearNote(db: DatabaseSync, taskId: number): void {
  if (hasNotes(db)) db.prepare("DELETE FROM task_notes WHERE task_id = ?").run(taskId);
}
