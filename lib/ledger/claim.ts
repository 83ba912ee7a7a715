/**
 * Send claims: a compare-and-set that lets only one process at a time send a
 * task, for `skiff ledger send`.
 *
 * A claim is a row in the side table `send_claims`:
 *
 * ```sql
 * CREATE TABLE IF NOT EXISTS send_claims (
 *   task_id INTEGER PRIMARY KEY, -- the row id in tasks
 *   claimed_at INTEGER NOT NULL, -- when the claim was made, in ms since the epoch
 *   pid INTEGER NOT NULL         -- the process that made it
 * );
 * ```
 *
 * The table belongs to schema version 2 but came after the rest of it, so a
 * version 2 ledger may or may not have it, and the schema version stays 2.
 * The first claim makes it (`CREATE TABLE IF NOT EXISTS`) inside the claim's
 * own `BEGIN IMMEDIATE` transaction, so opening and reading a ledger never
 * write for it, and a version 1 ledger still changes straight to version 2.
 *
 * A sender calls `Ledger.claimForSend` before it types anything and
 * `Ledger.finishSend` after, each one transaction:
 *
 * - A claim succeeds only when the task's stored state is `pending`, or it
 *   shows `interrupted` (for that the caller passes the liveness), and no
 *   fresh claim exists. Otherwise it fails with exit `CONFLICT` and changes
 *   nothing.
 * - A claim older than `staleMs` (default {@linkcode DEFAULT_STALE_MS}) is
 *   taken to be from a sender that crashed, and may be taken over.
 * - Finishing sets the state `sent` or `blocked` with the pane's generation
 *   (or, for `released`, leaves the row as it was) and drops the claim.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { usage } from "./inputs.ts";
import type { TaskRow } from "./rows.ts";
import { type Liveness, taskShownState } from "./states.ts";

/** How long, in ms, a claim holds before another process may take it over. */
export const DEFAULT_STALE_MS = 120_000;

/** The statement that makes the claims table. It does nothing when the table exists. */
export const SEND_CLAIMS_SCHEMA = `
CREATE TABLE IF NOT EXISTS send_claims (
  task_id INTEGER PRIMARY KEY,
  claimed_at INTEGER NOT NULL,
  pid INTEGER NOT NULL
);
`;

/** Options for `Ledger.claimForSend`. */
export interface ClaimOptions {
  /**
   * The live panes, so that a task that shows `interrupted` can be claimed.
   * Absent or `null` (unknown): only a `pending` task can be.
   */
  liveness?: Liveness;
  /** How old, in ms, a claim must be to count as left by a crashed sender. Default 120000. */
  staleMs?: number;
  /** The process id stored with the claim. Defaults to this process. */
  pid?: number;
}

/** How a send ended: the state to store, or `released` to keep the row as it was. */
export type SendOutcome = "sent" | "blocked" | "released";

/** Whether the database holds the claims table. */
export function hasSendClaims(db: DatabaseSync): boolean {
  return db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'send_claims'",
  ).get() !== undefined;
}

/**
 * Claims `row` for sending. Call inside a write transaction that read `row`.
 * Throws a {@linkcode SkiffError}: exit `USAGE` for a plan, exit `CONFLICT`
 * when the task is not pending or interrupted, or a fresh claim exists.
 */
export function claimRow(
  db: DatabaseSync,
  row: TaskRow,
  nowMs: number,
  options: ClaimOptions = {},
): void {
  if (row.kind === "plan") throw usage(`${row.uid} is a plan; only tasks are sent`);
  const shown = taskShownState(row, options.liveness ?? null);
  if (row.state !== "pending" && shown !== "interrupted") {
    const why = shown === row.state ? `it is ${shown}` : `it is ${row.state} and shows ${shown}`;
    throw new SkiffError(`Task ${row.uid} is not pending: ${why}`, {
      exit: "CONFLICT",
      details: { uid: row.uid, state: shown, stored_state: row.state },
    });
  }
  db.exec(SEND_CLAIMS_SCHEMA);
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const claim = db.prepare("SELECT claimed_at, pid FROM send_claims WHERE task_id = ?").get(row.id);
  if (claim !== undefined && nowMs - Number(claim.claimed_at) < staleMs) {
    throw new SkiffError(
      `Task ${row.uid} is being sent by another process (pid ${claim.pid})`,
      { exit: "CONFLICT", details: { uid: row.uid, pid: Number(claim.pid) } },
    );
  }
  db.prepare("INSERT OR REPLACE INTO send_claims (task_id, claimed_at, pid) VALUES (?, ?, ?)")
    .run(row.id, nowMs, options.pid ?? Deno.pid);
}

/**
 * Ends a send of `row`: stores the outcome and drops the claim. Call inside a
 * write transaction. `sent` and `blocked` store the state, the generation and
 * `sent_at` (the text was delivered); `released` changes only the claim.
 */
export function finishRow(
  db: DatabaseSync,
  row: TaskRow,
  outcome: SendOutcome,
  generation: number | null,
  stamp: string,
): void {
  if (row.kind === "plan") throw usage(`${row.uid} is a plan; only tasks are sent`);
  if (outcome !== "sent" && outcome !== "blocked" && outcome !== "released") {
    throw usage(`'${outcome}' is not a send outcome: use sent, blocked or released`);
  }
  if (outcome !== "released") {
    db.prepare(
      `UPDATE tasks SET state = ?, generation = ?, sent_at = ?, done_at = NULL, updated_at = ?
       WHERE id = ?`,
    ).run(outcome, generation, stamp, stamp, row.id);
  }
  if (hasSendClaims(db)) db.prepare("DELETE FROM send_claims WHERE task_id = ?").run(row.id);
}
