/**
 * Send claims: only one process at a time sends a task, and a claim lives
 * exactly as long as the process that made it.
 *
 * A claim is two things:
 *
 * - an exclusive lock on the file `<ledger>-claims/<row id>.lock`, held by the
 *   sending process until it finishes. The operating system releases it when
 *   that process ends in any way, so a claim never outlives its sender and
 *   never goes stale while it waits (a send may wait up to a day for a turn);
 * - a row in the side table `send_claims`, for people: which process has it.
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
 * version 2 ledger may or may not have it. The first claim makes it inside
 * the claim's own `BEGIN IMMEDIATE` transaction, so opening and reading a
 * ledger never write for it.
 *
 * A sender calls `Ledger.claimForSend` before it types anything and
 * `Ledger.finishSend` after:
 *
 * - A claim succeeds only when the task's lock is free, its stored state is
 *   `pending` or it shows `interrupted` (for that the caller passes the
 *   liveness). Otherwise it fails with exit `CONFLICT` and changes nothing.
 * - Finishing stores `sent` or `blocked` with the pane's generation (or, for
 *   `released`, leaves the row as it was), drops the claim row and releases
 *   the lock. The lock files stay: removing one could let two senders lock
 *   two different files under one name.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { usage } from "./inputs.ts";
import { clearNote, setNote } from "./notes.ts";
import type { TaskRow } from "./rows.ts";
import { type Liveness, taskShownState } from "./states.ts";

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
  /** The process id stored with the claim. Defaults to this process. */
  pid?: number;
}

/** How a send ended: the state to store, or `released` to keep the row as it was. */
export type SendOutcome = "sent" | "blocked" | "released";

/** What `Ledger.finishSend` stores with a delivered task. */
export interface SendFacts {
  /** The pane process's generation at the send. */
  generation?: number | null;
  /** The branch of the pane's worktree at the send (null: it has none). */
  branch?: string | null;
  /** The id of the pane's worktree at the send (`w3`; null: it has none). */
  worktree?: string | null;
  /** Why a blocked task is blocked. */
  note?: string;
}

/** Whether the database holds the claims table. */
export function hasSendClaims(db: DatabaseSync): boolean {
  return db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'send_claims'",
  ).get() !== undefined;
}

/** The folder of a ledger's claim locks. */
export function claimsDir(ledgerPath: string): string {
  return `${ledgerPath}-claims`;
}

/**
 * Takes the lock of task `id`, or returns `undefined` when another sender
 * holds it. The returned file keeps the lock until it is closed.
 */
export function lockClaim(ledgerPath: string, id: number): Deno.FsFile | undefined {
  const dir = claimsDir(ledgerPath);
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = Deno.openSync(join(dir, `${id}.lock`), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  if (file.tryLockSync(true)) return file;
  file.close();
  return undefined;
}

/**
 * The row ids of the tasks a live process is sending now: a claim row whose
 * process runs and whose lock is held. Reads only; the lock is looked at
 * only for a claim row of a live process, which only a crash followed by the
 * reuse of its pid can leave stale.
 */
export function tasksBeingSent(db: DatabaseSync, ledgerPath: string): Set<number> {
  const sending = new Set<number>();
  if (!hasSendClaims(db)) return sending;
  const claims = db.prepare("SELECT task_id, pid FROM send_claims").all();
  for (const claim of claims) {
    const id = Number(claim.task_id);
    if (!processRuns(Number(claim.pid))) continue;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(join(claimsDir(ledgerPath), `${id}.lock`), { read: true, write: true });
    } catch {
      continue;
    }
    try {
      if (file.tryLockSync(true)) file.unlockSync();
      else sending.add(id);
    } finally {
      file.close();
    }
  }
  return sending;
}

/** Whether process `pid` may run: looked up in /proc on Linux, assumed elsewhere (the lock decides). */
function processRuns(pid: number): boolean {
  if (!(pid > 0)) return false;
  if (Deno.build.os !== "linux") return true;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** The error for a task that another process is sending. */
export function claimedElsewhere(db: DatabaseSync, row: TaskRow): SkiffError {
  const claim = hasSendClaims(db)
    ? db.prepare("SELECT pid FROM send_claims WHERE task_id = ?").get(row.id)
    : undefined;
  const who = claim ? ` (pid ${claim.pid})` : "";
  return new SkiffError(`Task ${row.uid} is being sent by another process${who}`, {
    exit: "CONFLICT",
    details: { uid: row.uid, pid: claim ? Number(claim.pid) : null },
  });
}

/**
 * Records the claim of `row`, whose lock the caller holds. Call inside a
 * write transaction that read `row`. Throws a {@linkcode SkiffError}: exit
 * `USAGE` for a plan, exit `CONFLICT` when the task is not pending or
 * interrupted.
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
  db.prepare("INSERT OR REPLACE INTO send_claims (task_id, claimed_at, pid) VALUES (?, ?, ?)")
    .run(row.id, nowMs, options.pid ?? Deno.pid);
}

/**
 * Ends a send of `row`: stores the outcome and drops the claim row. Call
 * inside a write transaction. `sent` and `blocked` store the state, the
 * generation, the branch and the id of the pane's worktree and `sent_at`
 * (the text was delivered); `released` changes only the claim. A blocked
 * task keeps `facts.note` (why it is blocked); `sent` clears any note.
 */
export function finishRow(
  db: DatabaseSync,
  row: TaskRow,
  outcome: SendOutcome,
  facts: SendFacts & { stamp: string },
): void {
  const { stamp, note } = facts;
  const generation = facts.generation ?? null;
  const branch = facts.branch ?? null;
  const worktree = facts.worktree ?? null;
  if (row.kind === "plan") throw usage(`${row.uid} is a plan; only tasks are sent`);
  if (outcome !== "sent" && outcome !== "blocked" && outcome !== "released") {
    throw usage(`'${outcome}' is not a send outcome: use sent, blocked or released`);
  }
  if (outcome !== "released") {
    db.prepare(
      `UPDATE tasks SET state = ?, generation = ?, branch = ?, worktree = ?, sent_at = ?,
       done_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(outcome, generation, branch, worktree, stamp, stamp, row.id);
  }
  if (hasSendClaims(db)) db.prepare("DELETE FROM send_claims WHERE task_id = ?").run(row.id);
  if (outcome === "blocked" && note) setNote(db, row.id, note, stamp);
  else if (outcome !== "released") clearNote(db, row.id);
}
