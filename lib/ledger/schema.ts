/**
 * The ledger's schema, and how an existing file is recognised.
 *
 * `PRAGMA user_version` holds the schema version. Version 5 is current: the
 * tables of version 4, and in `tasks` the columns `worktree`, the id of the
 * pane's worktree (`w3`, as `skiff worktree ls` shows it) when the task was
 * last sent, and `landed_into`, `landed_from`, `landed_to` and `landed_at`:
 * the base branch, its tips before and after, and the time, when `skiff
 * land` landed the task's work (all `NULL` until then, and before version
 * 5). A Skiff before version 5 refuses such a ledger (it is newer), so it
 * never rewrites a landed row without knowing. Version 4: the tables of
 * version 3, and in `tasks` the column `host`, the host of the
 * task's pane (`[hosts.NAME]` in projects.toml; `NULL` for a pane on this
 * machine, and before version 4). A Skiff before version 4 refuses such a
 * ledger, so it never takes a remote pane's id for a local one. Version 3:
 * the tables of version 2, and in `tasks` the column `branch`, the branch of
 * the pane's worktree when the task was last sent (`NULL` when it has none,
 * or before version 3). Version 2:
 *
 * - `tasks`: one row per task or plan. `id` comes from AUTOINCREMENT, so
 *   `sqlite_sequence` remembers the highest id ever given and no id is given
 *   twice. `uid` is 8 lowercase hex characters. `pane` is `NULL` for a plan.
 *   `result` is relative to the ledger's folder, or absolute.
 * - `used_uids`: every uid ever given. A row's uid stays here after the row is
 *   removed, so a uid is never given again.
 * - `send_claims` (may be missing): which process is sending which task. It
 *   came after the rest of version 2, so a version 2 ledger may or may not
 *   have it; the first claim makes it. See `claim.ts`.
 *
 * Version 1, and the changes from 1 and 2, are described in `migrate.ts`.
 * Version 0 with no tables at all is an empty database, which becomes a new
 * ledger.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";

/** The schema version this Skiff writes and reads. */
export const LEDGER_VERSION = 5;

/** The statements that make an empty database a version 2 ledger (but not `user_version`). */
export const SCHEMA_V2 = `
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE CHECK (length(uid) = 8 AND uid NOT GLOB '*[^0-9a-f]*'),
  parent_id INTEGER,
  pane TEXT,
  pane_name TEXT,
  generation INTEGER,
  state TEXT NOT NULL CHECK (state IN ('sent', 'pending', 'blocked', 'done')),
  task TEXT NOT NULL,
  result TEXT NOT NULL,
  ref TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT,
  done_at TEXT
);
CREATE INDEX tasks_parent ON tasks (parent_id);
CREATE TABLE used_uids (uid TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** The columns of `tasks` in version 1. */
export const V1_COLUMNS = [
  "id",
  "parent_id",
  "pane",
  "pane_name",
  "generation",
  "state",
  "task",
  "result",
  "ref",
  "created_at",
  "updated_at",
] as const;

/** The columns of `tasks` in version 2. */
export const V2_COLUMNS = [...V1_COLUMNS, "uid", "sent_at", "done_at"] as const;

/** The statement that makes a version 2 ledger a version 3 one (but not `user_version`). */
export const V3_CHANGE = "ALTER TABLE tasks ADD COLUMN branch TEXT;";

/** The columns of `tasks` in version 3. */
export const V3_COLUMNS = [...V2_COLUMNS, "branch"] as const;

/** The statement that makes a version 3 ledger a version 4 one (but not `user_version`). */
export const V4_CHANGE = "ALTER TABLE tasks ADD COLUMN host TEXT;";

/** The columns of `tasks` in version 4. */
export const V4_COLUMNS = [...V3_COLUMNS, "host"] as const;

/** The statements that make a version 4 ledger a version 5 one (but not `user_version`). */
export const V5_CHANGE = `ALTER TABLE tasks ADD COLUMN worktree TEXT;
ALTER TABLE tasks ADD COLUMN landed_into TEXT;
ALTER TABLE tasks ADD COLUMN landed_from TEXT;
ALTER TABLE tasks ADD COLUMN landed_to TEXT;
ALTER TABLE tasks ADD COLUMN landed_at TEXT;`;

/** The columns of `tasks` in version 5. */
export const V5_COLUMNS = [
  ...V4_COLUMNS,
  "worktree",
  "landed_into",
  "landed_from",
  "landed_to",
  "landed_at",
] as const;

/** What an existing database holds: nothing yet, or a ledger of a known version. */
export type Shape = "empty" | 1 | 2 | 3 | 4 | 5;

function userVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return Number(row.user_version);
}

function tables(db: DatabaseSync): Set<string> {
  const rows = db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  ).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

function columns(db: DatabaseSync, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

function foreign(path: string, why: string): SkiffError {
  return new SkiffError(`${path} is not a Skiff ledger: ${why}`, {
    exit: "DATA",
    details: { path },
  });
}

/**
 * Reads what a database holds, without changing it. Throws a
 * {@linkcode SkiffError} with exit `DATA` for a database from a newer Skiff and
 * for one that is not a Skiff ledger. Its reads share one snapshot: inside the
 * caller's transaction if there is one, else in a read transaction of its own,
 * so a ledger that another process creates meanwhile is seen whole or not at
 * all.
 */
export function readShape(db: DatabaseSync, path: string): Shape {
  if (db.isTransaction) return shapeOf(db, path);
  db.exec("BEGIN");
  try {
    return shapeOf(db, path);
  } finally {
    db.exec("COMMIT");
  }
}

function shapeOf(db: DatabaseSync, path: string): Shape {
  const version = userVersion(db);
  const names = tables(db);
  if (version > LEDGER_VERSION) {
    throw new SkiffError(
      `Ledger ${path} is from a newer Skiff (schema ${version}; this Skiff reads up to ${LEDGER_VERSION})`,
      { exit: "DATA", details: { path, version, supported: LEDGER_VERSION } },
    );
  }
  if (version === 0) {
    if (names.size === 0) return "empty";
    throw foreign(path, `it holds other tables (${[...names].sort().join(", ")})`);
  }
  if (version < 0) throw foreign(path, `its schema version ${version} is unknown`);
  if (!names.has("tasks")) throw foreign(path, "it has no tasks table");
  const need = [V1_COLUMNS, V2_COLUMNS, V3_COLUMNS, V4_COLUMNS, V5_COLUMNS][version - 1];
  const have = columns(db, "tasks");
  const missing = need.filter((c) => !have.has(c));
  if (missing.length > 0) {
    throw foreign(path, `its tasks table lacks ${missing.join(", ")}`);
  }
  if (version >= 2 && !names.has("used_uids")) throw foreign(path, "it has no used_uids table");
  return version as 1 | 2 | 3 | 4 | 5;
}

/** Makes the current tables and sets `user_version`. Call inside a write transaction. */
export function createSchema(db: DatabaseSync): void {
  db.exec(SCHEMA_V2);
  db.exec(V3_CHANGE);
  db.exec(V4_CHANGE);
  db.exec(V5_CHANGE);
  db.exec(`PRAGMA user_version = ${LEDGER_VERSION}`);
}
