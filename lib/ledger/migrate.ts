/**
 * Changing an older ledger to the current schema.
 *
 * ## Version 1
 *
 * The first ledger schema had no uids. `PRAGMA user_version` is 1 and the
 * file holds one table:
 *
 * ```sql
 * CREATE TABLE tasks (
 *   id INTEGER PRIMARY KEY AUTOINCREMENT,
 *   parent_id INTEGER,      -- the plan's row id, or NULL
 *   pane TEXT,              -- the pane id; NULL for a plan
 *   pane_name TEXT,
 *   generation INTEGER,     -- the pane process's start time in ms
 *   state TEXT NOT NULL,    -- sent, pending, blocked or done
 *   task TEXT NOT NULL,
 *   result TEXT NOT NULL,   -- relative to the ledger's folder, or absolute
 *   ref TEXT,
 *   created_at TEXT,
 *   updated_at TEXT
 * );
 * ```
 *
 * ## From version 1 to 2
 *
 * One `BEGIN IMMEDIATE` transaction rebuilds the table: every row holds on to its id
 * and every other field and gets a fresh uid, which is also recorded in
 * `used_uids`. `sent_at` and `done_at` were not kept by version 1, so they
 * start empty. A missing `created_at` or `updated_at` becomes the time of the
 * change. `sqlite_sequence` keeps the highest id ever given, so ids stay
 * unique.
 *
 * ## From version 2 to 3
 *
 * `tasks` gets the column `branch` (`ALTER TABLE … ADD COLUMN`), empty in
 * every row: each row keeps its id, uid, state and every other field.
 *
 * ## From version 3 to 4
 *
 * `tasks` gets the column `host` (`ALTER TABLE … ADD COLUMN`), empty in
 * every row (every task so far is on a pane of this machine): each row keeps
 * its id, uid, state and every other field.
 *
 * ## From version 4 to 5
 *
 * `tasks` gets the columns `worktree`, `landed_into`, `landed_from`,
 * `landed_to` and `landed_at` (`ALTER TABLE … ADD COLUMN`), empty in every
 * row (no task has landed before, and the worktree of an older send is not
 * known: `skiff land` finds such a task by its pane and branch): each row
 * keeps its id, uid, state and every other field.
 *
 * A ledger of version 1 takes every step in one `BEGIN IMMEDIATE`
 * transaction, a ledger of version 2, 3 or 4 the steps after its version. If any step fails,
 * nothing changes. When another process changed the ledger first, the
 * transaction finds the current version and does nothing.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { immediate } from "./db.ts";
import { LEDGER_VERSION, readShape, SCHEMA_V2, V3_CHANGE, V4_CHANGE, V5_CHANGE } from "./schema.ts";
import { claimUid } from "./uid.ts";

type V1Row = {
  id: number;
  parent_id: number | null;
  pane: string | null;
  pane_name: string | null;
  generation: number | null;
  state: string;
  task: string;
  result: string;
  ref: string | null;
  created_at: string | null;
  updated_at: string | null;
};

/** What {@linkcode migrate} did. */
export interface Migration {
  /** The version the ledger had. */
  from: number;
  /** The version it has now. */
  to: number;
  /** How many rows were changed. */
  rows: number;
}

/**
 * Changes a version 1, 2, 3 or 4 ledger to the current version in one transaction.
 * Returns `null` when another process did it first. Throws a
 * {@linkcode SkiffError} (exit `DATA`) when a row cannot be kept, such as a
 * state that is not known; the ledger then stays as it was.
 */
export function migrate(db: DatabaseSync, path: string, now: Date): Migration | null {
  return immediate(db, path, () => {
    const shape = readShape(db, path);
    if (shape !== 1 && shape !== 2 && shape !== 3 && shape !== 4) return null;
    const rows = shape === 1
      ? fromVersion1(db, path, now)
      : Number(db.prepare("SELECT count(*) AS n FROM tasks").get()!.n);
    if (shape <= 2) db.exec(V3_CHANGE);
    if (shape <= 3) db.exec(V4_CHANGE);
    db.exec(V5_CHANGE);
    db.exec(`PRAGMA user_version = ${LEDGER_VERSION}`);
    return { from: shape, to: LEDGER_VERSION, rows };
  });
}

/** Rebuilds a version 1 ledger as version 2 (inside the caller's transaction); returns its rows. */
function fromVersion1(db: DatabaseSync, path: string, now: Date): number {
  const rows = db.prepare("SELECT * FROM tasks ORDER BY id").all() as unknown as V1Row[];
  const hasSeq = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'",
  ).get();
  const seqRow = hasSeq
    ? db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'tasks'").get()
    : undefined;
  const seq = rows.reduce((max, r) => Math.max(max, Number(r.id)), Number(seqRow?.seq ?? 0));
  const stamp = now.toISOString();
  db.exec("ALTER TABLE tasks RENAME TO tasks_v1");
  db.exec(SCHEMA_V2);
  const insert = db.prepare(
    `INSERT INTO tasks (id, uid, parent_id, pane, pane_name, generation, state, task, result,
      ref, created_at, updated_at, sent_at, done_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
  );
  for (const row of rows) {
    try {
      insert.run(
        row.id,
        claimUid(db),
        row.parent_id,
        row.pane,
        row.pane_name,
        row.generation,
        row.state,
        row.task,
        row.result,
        row.ref,
        row.created_at ?? stamp,
        row.updated_at ?? row.created_at ?? stamp,
      );
    } catch (error) {
      // The CHECK on state refuses a state that version 2 does not know.
      if (!/CHECK constraint failed/.test(String(error))) throw error;
      throw new SkiffError(
        `Cannot upgrade ledger ${path}: row ${row.id} has the unknown state '${row.state}'`,
        { exit: "DATA", details: { path, id: row.id, state: row.state }, cause: error },
      );
    }
  }
  db.exec("DROP TABLE tasks_v1");
  db.prepare("DELETE FROM sqlite_sequence WHERE name = 'tasks'").run();
  if (seq > 0) db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('tasks', ?)").run(seq);
  return rows.length;
}
