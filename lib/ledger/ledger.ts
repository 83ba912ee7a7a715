/**
 * The {@linkcode Ledger} class: every read and write of an open ledger.
 *
 * Every write is one `BEGIN IMMEDIATE` transaction, so many processes can
 * write at once without losing a row. Open a ledger with `openLedger`.
 *
 * @module
 */

import { dirname } from "../platform/path.ts";
import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import {
  claimedElsewhere,
  type ClaimOptions,
  claimRow,
  finishRow,
  lockClaim,
  type SendFacts,
  type SendOutcome,
  tasksBeingSent,
} from "./claim.ts";
import { clearNote, hasNotes } from "./notes.ts";
import { guarded, immediate, writeProblem } from "./db.ts";
import type { ImportReport } from "./import_md.ts";
import { buildList, entryOf, type ListFilter, type ResolvedFilter } from "./listing.ts";
import { listRowsJson } from "./list_json.ts";
import type { Migration } from "./migrate.ts";
import { resolveRef } from "./refs.ts";
import { storedCallerResult } from "./result_path.ts";
import {
  type Entry,
  type ListResult,
  ROW_SELECT,
  ROW_SELECT_NOTES,
  rowFrom,
  type TaskRow,
} from "./rows.ts";
import {
  type AddInput,
  checkPane,
  checkState,
  checkText,
  type RemoveOptions,
  type UpdateInput,
  usage,
} from "./inputs.ts";
import { isShownState, type Liveness } from "./states.ts";
import { insertTask, markDelivered, updateTask } from "./row_writes.ts";
import { markLandedRows, onWorktree, type WorktreeTasks } from "./landed.ts";

/** Settings a {@linkcode Ledger} works with. */
export interface LedgerSettings {
  /** Gives the current time: the date of result paths and every timestamp. */
  now: () => Date;
  /** The folder that relative result paths given by callers are resolved against. */
  cwd: string;
  /** What importing `ledger.md` did when this open created the ledger, else `null`. */
  imported: ImportReport | null;
  /** What the schema change did on this open, else `null`. */
  migrated: Migration | null;
}

/**
 * An open ledger. Get one from `openLedger`; call {@linkcode Ledger.close}
 * (or use `using`) when done. Refs are described in `refs.ts`.
 */
export class Ledger {
  /** The absolute path of `ledger.db`. */
  readonly path: string;
  /** The folder that holds the ledger; computed result paths are relative to it. */
  readonly folder: string;
  /** What importing `ledger.md` did on this open, or `null`. */
  readonly imported: ImportReport | null;
  /** What the schema change did on this open, or `null`. */
  readonly migrated: Migration | null;
  #db: DatabaseSync;
  #now: () => Date;
  #cwd: string;
  /** The claim locks this ledger holds, by row id: released by `finishSend` or `close`. */
  readonly #claims = new Map<number, Deno.FsFile>();

  /** Wraps an open, current connection. Use `openLedger` instead. */
  constructor(db: DatabaseSync, path: string, settings: LedgerSettings) {
    this.#db = db;
    this.path = path;
    this.folder = dirname(path);
    this.#now = settings.now;
    this.#cwd = settings.cwd;
    this.imported = settings.imported;
    this.migrated = settings.migrated;
  }

  /** The row query: with notes once the ledger has them (another process may have made them). */
  #select(): string {
    return hasNotes(this.#db) ? ROW_SELECT_NOTES : ROW_SELECT;
  }

  #row(id: number): TaskRow {
    const record = this.#db.prepare(`${this.#select()} WHERE t.id = ?`).get(id);
    if (!record) throw new SkiffError(`No task with ID ${id}`, { exit: "NOT_FOUND" });
    return rowFrom(record, this.folder);
  }

  #all(): TaskRow[] {
    return this.#db.prepare(`${this.#select()} ORDER BY t.id`).all().map((r) =>
      rowFrom(r, this.folder)
    );
  }

  /** Runs reads in one read transaction, so they all see the same snapshot. */
  #read<T>(fn: () => T): T {
    return guarded(this.path, () => {
      this.#db.exec("BEGIN");
      try {
        return fn();
      } finally {
        this.#db.exec("COMMIT");
      }
    });
  }

  #write<T>(fn: () => T): T {
    return immediate(this.#db, this.path, fn);
  }

  /**
   * Adds a task, or a plan when `pane` is absent, and returns the new row.
   * The result path is computed when none is given (see `result_path.ts`);
   * no file is made. Refuses (exit `USAGE`) a blank task, an unknown state, a
   * parent that is a task, and a plan inside a plan.
   */
  add(input: AddInput): TaskRow {
    checkText(input.task);
    const pane = input.pane ?? null;
    if (pane) checkPane(pane);
    const state = input.state ?? (pane ? "pending" : "sent");
    checkState(state);
    const now = this.#now();
    const given = input.result ? storedCallerResult(input.result, this.#cwd) : null;
    return this.#write(() =>
      this.#row(insertTask(this.#db, input, { pane, state, result: given, now }))
    );
  }

  /** Resolves a ref to a row id. Exit `USAGE` when ambiguous, `NOT_FOUND` when unknown. */
  resolve(ref: string): number {
    return this.#read(() => resolveRef(this.#db, ref));
  }

  /** Returns the stored row a ref names. */
  get(ref: string): TaskRow {
    return this.#read(() => this.#row(resolveRef(this.#db, ref)));
  }

  /** Returns the row a ref names with its shown state; a plan comes with all its tasks. */
  show(ref: string, liveness: Liveness): Entry {
    return this.#read(() => {
      const id = resolveRef(this.#db, ref);
      const row = this.#row(id);
      // Only the row and its plan's tasks matter, not the whole ledger.
      const tasks = this.#db.prepare(`${this.#select()} WHERE t.parent_id = ? ORDER BY t.id`)
        .all(id)
        .map((r) => rowFrom(r, this.folder));
      return entryOf(row, tasks, liveness);
    });
  }

  /**
   * Lists rows: by default the open ones (not done), each plan with its tasks
   * under it. See `buildList` in `listing.ts` for the filter rules. Refuses
   * (exit `USAGE`) an unknown state and a `plan` ref that names a task.
   */
  list(filter: ListFilter, liveness: Liveness): ListResult {
    return this.#listed(filter, (resolved) => buildList(this.#all(), resolved, liveness));
  }

  /**
   * The rows {@linkcode Ledger.list} gives, in their JSON form (as
   * `listToJson(...).rows`), as UTF-8 bytes made by SQLite, in pieces to
   * write in order: much faster for a big ledger than making an object for
   * every row.
   */
  listJson(filter: ListFilter, liveness: Liveness): Uint8Array[] {
    return this.#listed(
      filter,
      (resolved) => listRowsJson(this.#db, this.folder, resolved, liveness),
    );
  }

  #listed<T>(filter: ListFilter, list: (resolved: ResolvedFilter) => T): T {
    const states = filter.state === undefined
      ? []
      : typeof filter.state === "string"
      ? [filter.state]
      : filter.state;
    for (const s of states) {
      if (!isShownState(s)) throw usage(`'${s}' is not a state`, { state: s });
    }
    return this.#read(() => {
      let planId: number | null = null;
      if (filter.plan !== undefined) {
        planId = resolveRef(this.#db, filter.plan);
        const row = this.#row(planId);
        if (row.kind !== "plan") throw usage(`${row.uid} is a task, not a plan`);
      }
      return list({ ...filter, planId });
    });
  }

  /**
   * Changes a row and returns it. Setting `sent` stamps `sent_at`; setting
   * `done` stamps `done_at`, and any other state clears it. A plan cannot get
   * a pane, and cannot be marked done while a task in it is open (exit
   * `CONFLICT`). See {@linkcode UpdateInput} for the generation rules.
   */
  update(ref: string, changes: UpdateInput): TaskRow {
    const fields = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (fields.length === 0) throw usage("Nothing to change");
    if (changes.task !== undefined) checkText(changes.task);
    if (changes.state !== undefined) checkState(changes.state);
    if (changes.pane !== undefined) checkPane(changes.pane);
    if (changes.result !== undefined && changes.result.trim() === "") {
      throw usage("Result path is empty");
    }
    const stamp = this.#now().toISOString();
    return this.#write(() => {
      const row = this.#row(resolveRef(this.#db, ref));
      updateTask(this.#db, row, changes, { stamp, cwd: this.#cwd });
      return this.#row(row.id);
    });
  }

  #mark(ref: string, state: "sent" | "blocked", generation: number | null): TaskRow {
    const stamp = this.#now().toISOString();
    return this.#write(() => {
      const row = this.#row(resolveRef(this.#db, ref));
      markDelivered(this.#db, row, state, generation, stamp);
      return this.#row(row.id);
    });
  }

  /** Marks a task `sent` after a send, storing the pane's generation and `sent_at`. */
  setSent(ref: string, generation: number | null): TaskRow {
    return this.#mark(ref, "sent", generation);
  }

  /**
   * Marks a task `blocked`: delivered, but the agent did not start on it. Stores the
   * pane's generation and stamps `sent_at`, since the text was delivered.
   */
  setBlocked(ref: string, generation: number | null): TaskRow {
    return this.#mark(ref, "blocked", generation);
  }

  /**
   * Claims a task for sending and returns it. Only a task whose stored state
   * is `pending`, or that shows `interrupted` with `options.liveness`, and
   * that no other sender holds can be claimed; otherwise exit `CONFLICT`.
   * The claim holds until {@linkcode Ledger.finishSend} or until this process
   * ends. See `claim.ts`.
   */
  claimForSend(ref: string, options: ClaimOptions = {}): TaskRow {
    const now = this.#now().getTime();
    const id = this.resolve(ref);
    if (this.#claims.has(id)) throw this.#read(() => claimedElsewhere(this.#db, this.#row(id)));
    const lock = lockClaim(this.path, id);
    if (!lock) throw this.#read(() => claimedElsewhere(this.#db, this.#row(id)));
    try {
      const row = this.#write(() => {
        const row = this.#row(id);
        claimRow(this.#db, row, now, options);
        return row;
      });
      this.#claims.set(id, lock);
      return row;
    } catch (error) {
      lock.close();
      throw error;
    }
  }

  /**
   * Ends a send, in one transaction, and returns the row: `sent` or `blocked`
   * stores that state with the pane's `generation` and the `branch` of its
   * worktree (null without one); `released` (a refusal) keeps the row as it
   * was. The claim is dropped in each case. `note` says why a blocked task
   * is blocked; `sent` clears any note.
   */
  finishSend(ref: string, outcome: SendOutcome, facts: SendFacts = {}): TaskRow {
    const stamp = this.#now().toISOString();
    try {
      return this.#write(() => {
        const row = this.#row(resolveRef(this.#db, ref));
        finishRow(this.#db, row, outcome, { ...facts, stamp });
        return this.#row(row.id);
      });
    } finally {
      const id = this.#read(() => resolveRef(this.#db, ref));
      this.#claims.get(id)?.close();
      this.#claims.delete(id);
    }
  }

  /** The tasks sent on a worktree's branch (see {@linkcode WorktreeTasks}) not landed yet, in id order. */
  tasksOn(match: WorktreeTasks): TaskRow[] {
    const { where, values } = onWorktree(match);
    return this.#read(() =>
      this.#db.prepare(`${this.#select()} WHERE ${where} ORDER BY t.id`).all(...values)
        .map((r) => rowFrom(r, this.folder))
    );
  }

  /**
   * Marks each task sent on a worktree's branch that has not landed yet
   * `landed`, in one transaction: done (its `done_at` kept when it had one),
   * with the base and its tips before and after. Returns the rows marked.
   */
  markLanded(
    match: WorktreeTasks,
    landing: { into: string; from: string; to: string },
  ): TaskRow[] {
    const stamp = this.#now().toISOString();
    return this.#write(() =>
      markLandedRows(this.#db, match, landing, stamp).map((id) => this.#row(id))
    );
  }

  /** Marks a row done. Same as `update(ref, {state: "done"})`. */
  done(ref: string): TaskRow {
    return this.update(ref, { state: "done" });
  }

  /**
   * Removes a row and returns the removed rows. A plan with tasks is refused
   * (exit `CONFLICT`) unless `withTasks` is set. Removed ids and uids are
   * never given again, and no result file is deleted.
   */
  remove(ref: string, options: RemoveOptions = {}): TaskRow[] {
    return this.#write(() => {
      const row = this.#row(resolveRef(this.#db, ref));
      const tasks = row.kind === "plan"
        ? this.#db.prepare("SELECT id FROM tasks WHERE parent_id = ? ORDER BY id").all(row.id)
          .map((r) => this.#row(Number(r.id)))
        : [];
      if (tasks.length > 0 && !options.withTasks) {
        throw new SkiffError(
          `Plan ${row.uid} has ${tasks.length} task(s); remove them first, or remove the plan with its tasks`,
          { exit: "CONFLICT", details: { tasks: tasks.map((t) => t.uid) } },
        );
      }
      const removed = [row, ...tasks];
      const del = this.#db.prepare("DELETE FROM tasks WHERE id = ?");
      for (const r of removed) {
        del.run(r.id);
        clearNote(this.#db, r.id);
      }
      return removed;
    });
  }

  /** The hosts of the open tasks (not done), in name order: where to ask which panes live. */
  openHosts(): string[] {
    return this.#read(() =>
      this.#db.prepare(
        "SELECT DISTINCT host FROM tasks WHERE host IS NOT NULL AND state <> 'done' ORDER BY host",
      ).all().map((r) => String(r.host))
    );
  }

  /** The row ids of the tasks another live process is sending now (see `claim.ts`). */
  beingSent(): Set<number> {
    return this.#read(() => tasksBeingSent(this.#db, this.path));
  }

  /**
   * Why a write would fail now (the ledger is read-only, or another process
   * holds its write lock), found without writing or waiting; `null` when a
   * write could start.
   */
  writeProblem(): SkiffError | null {
    return writeProblem(this.#db, this.path);
  }

  /** Closes the connection and releases any claim it still holds. Calling it again does nothing. */
  close(): void {
    for (const lock of this.#claims.values()) lock.close();
    this.#claims.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /** Closes the connection, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}
