/**
 * The JSON form of ledger rows: one stable shape for `--json` output.
 *
 * ```ts
 * {
 *   id: number,               // row id
 *   uid: string,              // 8 lowercase hex characters
 *   kind: "task" | "plan",    // a plan has no pane
 *   state: string,            // the shown state: sent, pending, blocked, done, interrupted, gone,
 *                             // open, unreachable, landed
 *   stored_state: string,     // the stored state: sent, pending, blocked, done
 *   host: string | null,      // the pane's host ([hosts.NAME]); null on this machine, and for a plan
 *   pane: string | null,      // pane id on its host, such as "p3"; null for a plan
 *   pane_name: string | null, // the pane's name when stored
 *   generation: number | null,// the pane process's start time (ms since the epoch) when stored
 *   branch: string | null,    // the branch of the pane's worktree when the task was last sent
 *   task: string,
 *   result: string,           // absolute path of the result file
 *   ref: string | null,       // free text
 *   parent: string | null,    // the plan's uid
 *   created_at: string,       // ISO 8601, UTC
 *   updated_at: string,
 *   sent_at: string | null,
 *   done_at: string | null,
 *   note: string | null,      // why the last send left it blocked
 *   worktree: string | null,  // the id of the pane's worktree (w3) when the task was last sent
 *   landed: {                 // when `skiff land` landed its work, else null
 *     into: string,           //   the base branch
 *     from: string,           //   its tip before
 *     to: string,             //   its tip after: `git log FROM..TO` lists what landed
 *     range: string,          //   "FROM..TO"
 *     at: string,             //   ISO 8601, UTC
 *   } | null,
 *   tasks?: [...]             // plans only: their tasks, in this same shape
 * }
 * ```
 *
 * Keys keep this order. New keys may be added; none is renamed or removed
 * without a new `schema_version`.
 *
 * @module
 */

import type { Entry, ListResult, TaskLanding, TaskRow } from "./rows.ts";
import type { ShownState } from "./states.ts";

/** One row in JSON form. See the module documentation for the shape. */
export interface TaskJson {
  /** The row id. */
  id: number;
  /** The uid: 8 lowercase hex characters. */
  uid: string;
  /** `plan` for a row with no pane, else `task`. */
  kind: "task" | "plan";
  /** The shown state, which may be `interrupted` or `gone`. */
  state: ShownState;
  /** The stored state: `sent`, `pending`, `blocked` or `done`. */
  stored_state: string;
  /** The pane's host, or `null` for a pane on this machine and for a plan. */
  host: string | null;
  /** The pane id on its host; `null` for a plan. */
  pane: string | null;
  /** The pane's name when stored. */
  pane_name: string | null;
  /** The pane process's start time (ms since the epoch) when stored. */
  generation: number | null;
  /** The branch of the pane's worktree when the task was last sent, or `null`. */
  branch: string | null;
  /** The task text. */
  task: string;
  /** The absolute path of the result file. */
  result: string;
  /** Free text. */
  ref: string | null;
  /** The plan's uid, or `null`. */
  parent: string | null;
  /** When the row was added (ISO 8601, UTC). */
  created_at: string;
  /** When the row last changed. */
  updated_at: string;
  /** When the task was last sent, or `null`. */
  sent_at: string | null;
  /** When the row was marked done, or `null`. */
  done_at: string | null;
  /** Why the last send left the task blocked, or `null`. */
  note: string | null;
  /** The id of the pane's worktree (`w3`) when the task was last sent, or `null`. */
  worktree: string | null;
  /** When `skiff land` landed the task's work, or `null`. */
  landed: LandingJson | null;
  /** Plans only: their tasks, in this same shape. */
  tasks?: TaskJson[];
}

/** A task's landing in JSON form. */
export interface LandingJson extends TaskLanding {
  /** `FROM..TO`: `git log RANGE` on the base lists what landed. */
  range: string;
}

/** The state a row shows, and for a plan the tasks to list under it. */
export interface Shown {
  /** The shown state. */
  state: ShownState;
  /** For a plan: the tasks to include (an `Entry` fits here). */
  tasks?: readonly Entry[];
}

/** The JSON form of a row with its shown state. A plan always gets `tasks` (maybe empty). */
export function toJson(row: TaskRow, shown: Shown): TaskJson {
  const json: TaskJson = {
    id: row.id,
    uid: row.uid,
    kind: row.kind,
    state: shown.state,
    stored_state: row.state,
    host: row.host,
    pane: row.pane,
    pane_name: row.paneName,
    generation: row.generation,
    branch: row.branch,
    task: row.task,
    result: row.result,
    ref: row.ref,
    parent: row.parentUid,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    sent_at: row.sentAt,
    done_at: row.doneAt,
    note: row.note,
    worktree: row.worktree,
    landed: row.landed
      ? {
        into: row.landed.into,
        from: row.landed.from,
        to: row.landed.to,
        range: `${row.landed.from}..${row.landed.to}`,
        at: row.landed.at,
      }
      : null,
  };
  if (row.kind === "plan") json.tasks = (shown.tasks ?? []).map((t) => toJson(t.row, t));
  return json;
}

/** The JSON form of an entry (a row with its shown state). */
export function entryToJson(entry: Entry): TaskJson {
  return toJson(entry.row, entry);
}

/** The JSON form of a list: `{liveness: "known" | "unknown", rows: TaskJson[]}`. */
export function listToJson(list: ListResult): { liveness: "known" | "unknown"; rows: TaskJson[] } {
  return {
    liveness: list.livenessKnown ? "known" : "unknown",
    rows: list.entries.map(entryToJson),
  };
}
