/**
 * The SQL of adding and changing a row, for {@linkcode Ledger}'s writes. The
 * caller checks the input, runs these inside its write transaction, and
 * reads the row back.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { type AddInput, type UpdateInput, usage } from "./inputs.ts";
import { clearNote } from "./notes.ts";
import { resolveRef } from "./refs.ts";
import { resultPathFor, storedCallerResult } from "./result_path.ts";
import type { TaskRow } from "./rows.ts";
import type { StoredState } from "./states.ts";
import { claimUid } from "./uid.ts";

/** What {@linkcode insertTask} writes besides the input. */
export interface InsertFacts {
  /** The pane, or null for a plan. */
  pane: AddInput["pane"] | null;
  /** The state to store. */
  state: StoredState;
  /** The result path as the caller gave it, stored form; null to compute one. */
  result: string | null;
  /** The time of the write. */
  now: Date;
}

/**
 * Inserts a task, or a plan when `facts.pane` is null, and returns its row
 * id. Refuses (exit `USAGE`) a parent that is a task and a plan inside a plan.
 */
export function insertTask(db: DatabaseSync, input: AddInput, facts: InsertFacts): number {
  const { pane, state, now } = facts;
  const stamp = now.toISOString();
  let parent: { id: number; result: string } | null = null;
  if (input.parent !== undefined && input.parent !== null) {
    const id = resolveRef(db, input.parent);
    const row = db.prepare("SELECT id, uid, pane, result FROM tasks WHERE id = ?").get(id)!;
    if (row.pane !== null) throw usage(`Parent ${row.uid} is a task, not a plan`);
    if (!pane) throw usage("A plan cannot be in another plan");
    parent = { id, result: String(row.result) };
  }
  const uid = claimUid(db);
  const result = facts.result ?? resultPathFor({
    uid,
    task: input.task,
    plan: pane === null,
    parentResult: parent?.result,
    now,
  });
  const run = db.prepare(
    `INSERT INTO tasks (uid, parent_id, host, pane, pane_name, generation, state, task, result,
      ref, created_at, updated_at, sent_at, done_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    uid,
    parent?.id ?? null,
    pane?.host ?? null,
    pane?.id ?? null,
    pane?.name ?? null,
    pane?.generation ?? null,
    state,
    input.task,
    result,
    input.ref ?? null,
    stamp,
    stamp,
    state === "sent" && pane ? stamp : null,
    state === "done" ? stamp : null,
  );
  return Number(run.lastInsertRowid);
}

/**
 * Writes `changes` to `row`. Setting `sent` stamps `sent_at`; setting `done`
 * stamps `done_at`, and any other state clears it. A plan cannot get a pane
 * (exit `USAGE`) or be done while a task in it is open (exit `CONFLICT`).
 * `context.cwd` resolves a relative result path.
 */
export function updateTask(
  db: DatabaseSync,
  row: TaskRow,
  changes: UpdateInput,
  context: { stamp: string; cwd: string },
): void {
  const { stamp } = context;
  const set: Record<string, string | number | null> = { updated_at: stamp };
  if (changes.pane !== undefined) {
    if (row.kind === "plan") throw usage(`${row.uid} is a plan, and a plan has no pane`);
    set.host = changes.pane.host ?? null;
    set.pane = changes.pane.id;
    set.pane_name = changes.pane.name ?? null;
    set.generation = changes.pane.generation ?? null;
  }
  if (changes.state !== undefined) {
    if (changes.state === "done" && row.kind === "plan") checkPlanDone(db, row);
    set.state = changes.state;
    set.done_at = changes.state === "done" ? stamp : null;
    if (changes.state !== "done") {
      // Opened again: what landed before is no longer its whole work.
      for (const column of ["landed_into", "landed_from", "landed_to", "landed_at"]) {
        set[column] = null;
      }
    }
    if (changes.state === "sent") {
      set.sent_at = stamp;
      if (changes.pane === undefined) set.generation = null;
    }
  }
  if (changes.generation !== undefined) set.generation = changes.generation;
  if (changes.task !== undefined) set.task = changes.task;
  if (changes.ref !== undefined) set.ref = changes.ref;
  if (changes.result !== undefined) set.result = storedCallerResult(changes.result, context.cwd);
  const names = Object.keys(set);
  db.prepare(`UPDATE tasks SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`)
    .run(...names.map((n) => set[n]), row.id);
  // A note says why the last send left the task blocked; a new state makes it stale.
  if (changes.state !== undefined) clearNote(db, row.id);
}

/** Throws exit `CONFLICT` when a task of `plan` is not done. */
export function checkPlanDone(db: DatabaseSync, plan: TaskRow): void {
  const open = db.prepare(
    "SELECT uid FROM tasks WHERE parent_id = ? AND state != 'done' ORDER BY id",
  ).all(plan.id).map((r) => String(r.uid));
  if (open.length === 0) return;
  throw new SkiffError(
    `Plan ${plan.uid} has ${open.length} open task(s): ${open.join(", ")}`,
    { exit: "CONFLICT", details: { open } },
  );
}

/**
 * Marks task `row` delivered without a claim: `sent`, or `blocked` (the
 * agent did not start on it), with the pane's generation, stamping
 * `sent_at` since the text was delivered. Refuses (exit `USAGE`) a plan.
 */
export function markDelivered(
  db: DatabaseSync,
  row: TaskRow,
  state: "sent" | "blocked",
  generation: number | null,
  stamp: string,
): void {
  if (row.kind === "plan") throw usage(`${row.uid} is a plan; only tasks are sent`);
  db.prepare(
    `UPDATE tasks SET state = ?, generation = ?, sent_at = ?, done_at = NULL, updated_at = ?
     WHERE id = ?`,
  ).run(state, generation, stamp, stamp, row.id);
}
