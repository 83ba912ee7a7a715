/**
 * The row type the API hands out, and how it is read from the database.
 *
 * @module
 */

import { absoluteResult } from "./result_path.ts";
import type { ShownState, StoredState } from "./states.ts";

/** One row of the ledger as stored, with its result path made absolute. */
export interface TaskRow {
  /** The row id: a positive integer, never given again. */
  id: number;
  /** The uid: 8 lowercase hex characters, never given again. */
  uid: string;
  /** `plan` for a row with no pane, else `task`. */
  kind: "task" | "plan";
  /** The row id of the task's plan, or `null`. */
  parentId: number | null;
  /** The uid of the task's plan, or `null`. */
  parentUid: string | null;
  /** The pane's host (`[hosts.NAME]`), or `null` for a pane on this machine and for a plan. */
  host: string | null;
  /** The pane id, such as `p3`, on its host; `null` for a plan. */
  pane: string | null;
  /** The pane's name when the row was stored, for display; `null` if unknown. */
  paneName: string | null;
  /** The pane process's start time in ms since the epoch when stored; `null` if unknown. */
  generation: number | null;
  /** The branch of the pane's worktree when the task was last sent; `null` if none. */
  branch: string | null;
  /** The stored state. */
  state: StoredState;
  /** The task text. */
  task: string;
  /** The absolute path of the result file. */
  result: string;
  /** Free text such as a URL or a ticket key; Skiff does not read it. */
  ref: string | null;
  /** When the row was added (ISO 8601, UTC). */
  createdAt: string;
  /** When the row last changed (ISO 8601, UTC). */
  updatedAt: string;
  /** When the task was last delivered (as `sent` or `blocked`); `null` if never. */
  sentAt: string | null;
  /** When the task was marked done; `null` while it is open. */
  doneAt: string | null;
  /** Why the last send did not end in `sent` (see `notes.ts`), or `null`. */
  note: string | null;
  /** The id of the pane's worktree (`w3`) when the task was last sent; `null` if none or unknown. */
  worktree: string | null;
  /** When `skiff land` landed the task's work: the base and its tips before and after; else `null`. */
  landed: TaskLanding | null;
}

/** A landing of a task's work (`skiff land`), as the ledger keeps it. */
export interface TaskLanding {
  /** The base branch it landed on. */
  into: string;
  /** The base's tip before. */
  from: string;
  /** The base's tip after (the landed commit). */
  to: string;
  /** When (ISO 8601, UTC). */
  at: string;
}

/** The columns every row query selects, from `tasks t` joined to its plan `p`. */
export const ROW_SELECT = `SELECT t.id, t.uid, t.parent_id, p.uid AS parent_uid, t.host, t.pane,
  t.pane_name, t.generation, t.branch, t.state, t.task, t.result, t.ref, t.created_at, t.updated_at,
  t.sent_at, t.done_at, t.worktree, t.landed_into, t.landed_from, t.landed_to, t.landed_at
  FROM tasks t LEFT JOIN tasks p ON p.id = t.parent_id`;

/** {@linkcode ROW_SELECT} with each row's note, for a ledger that has the notes table. */
export const ROW_SELECT_NOTES =
  `SELECT t.id, t.uid, t.parent_id, p.uid AS parent_uid, t.host, t.pane,
  t.pane_name, t.generation, t.branch, t.state, t.task, t.result, t.ref, t.created_at, t.updated_at,
  t.sent_at, t.done_at, t.worktree, t.landed_into, t.landed_from, t.landed_to, t.landed_at,
  n.note AS note
  FROM tasks t LEFT JOIN tasks p ON p.id = t.parent_id LEFT JOIN task_notes n ON n.task_id = t.id`;

type Value = string | number | bigint | null | Uint8Array;

function str(v: Value | undefined): string | null {
  return v === null || v === undefined ? null : String(v);
}

function num(v: Value | undefined): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/** Makes a {@linkcode TaskRow} from a record that {@linkcode ROW_SELECT} returned. */
export function rowFrom(record: Record<string, Value>, ledgerDir: string): TaskRow {
  const pane = str(record.pane);
  return {
    id: Number(record.id),
    uid: String(record.uid),
    kind: pane === null ? "plan" : "task",
    parentId: num(record.parent_id),
    parentUid: str(record.parent_uid),
    host: str(record.host),
    pane,
    paneName: str(record.pane_name),
    generation: num(record.generation),
    branch: str(record.branch),
    state: String(record.state) as StoredState,
    task: String(record.task),
    result: absoluteResult(String(record.result), ledgerDir),
    ref: str(record.ref),
    createdAt: String(record.created_at),
    updatedAt: String(record.updated_at),
    sentAt: str(record.sent_at),
    doneAt: str(record.done_at),
    note: str(record.note),
    worktree: str(record.worktree),
    landed: record.landed_at === null || record.landed_at === undefined ? null : {
      into: String(record.landed_into),
      from: String(record.landed_from),
      to: String(record.landed_to),
      at: String(record.landed_at),
    },
  };
}

/** The fields of a row that decide whether and where it is listed, and what state it shows. */
export type ListRow = Pick<
  TaskRow,
  "id" | "kind" | "parentId" | "host" | "pane" | "paneName" | "generation" | "state" | "landed"
>;

/** A row with the state it shows, and for a plan the tasks listed under it. */
export interface Entry<R extends ListRow = TaskRow> {
  /** The stored row. */
  row: R;
  /** The state the row shows (see `states.ts`). */
  state: ShownState;
  /** For a plan: its tasks, in row id order. Absent for a task. */
  tasks?: Entry<R>[];
}

/** What `Ledger.list` returns. */
export interface ListResult<R extends ListRow = TaskRow> {
  /** Plans and tasks without a plan, in row id order; each plan holds its tasks. */
  entries: Entry<R>[];
  /** `false` when liveness was unknown, so no row could show `interrupted` or `gone`. */
  livenessKnown: boolean;
}
