/**
 * What the `Ledger` methods take, and the checks on it.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { isShownState, isStoredState, type StoredState } from "./states.ts";

/** A pane, as `add` and `update` take it. */
export interface LedgerPane {
  /** The pane id, such as `p3`, on its host. */
  id: string;
  /** The pane's host (`[hosts.NAME]`); `null` or absent for this machine. */
  host?: string | null;
  /** The pane's name now, kept for display. */
  name?: string | null;
  /** The pane process's start time in ms since the epoch; `null` or absent if unknown. */
  generation?: number | null;
}

/** What `Ledger.add` takes. */
export interface AddInput {
  /** The pane the task goes to. Without it, the row is a plan. */
  pane?: LedgerPane | null;
  /** The task text. It must not be blank. */
  task: string;
  /** The result path; relative paths are resolved against the `cwd` option. Computed if absent. */
  result?: string | null;
  /** Free text such as a URL or a ticket key. */
  ref?: string | null;
  /** A ref to the plan this task belongs to. Only tasks (rows with a pane) go in plans. */
  parent?: string | null;
  /** The stored state. Defaults to `pending` for a task and `sent` for a plan. */
  state?: StoredState;
}

/** What `Ledger.update` takes. Absent fields stay as they are. */
export interface UpdateInput {
  /** The new stored state. */
  state?: StoredState;
  /** A new pane (tasks only). Its generation is stored too. */
  pane?: LedgerPane;
  /** A new task text. The result path does not change. */
  task?: string;
  /** New free text, or `null` to clear it. */
  ref?: string | null;
  /** A new result path; relative paths are resolved against the `cwd` option. */
  result?: string;
  /**
   * The pane's generation now. Stored whenever it is given. When it is absent,
   * a new `pane` stores the pane's own generation, and the state `sent`
   * stores `null` (unknown), so an old generation never marks a fresh send
   * `interrupted`.
   */
  generation?: number | null;
}

/** Options for `Ledger.remove`. */
export interface RemoveOptions {
  /** Remove a plan together with its tasks. Without it, a plan with tasks is refused. */
  withTasks?: boolean;
}

/** A `USAGE` error with a one-line message. */
export function usage(message: string, details: Record<string, unknown> = {}): SkiffError {
  return new SkiffError(message, { exit: "USAGE", details });
}

/** Refuses a blank task text. */
export function checkText(task: string): void {
  if (task.trim() === "") throw usage("Task text is empty");
  const bytes = new TextEncoder().encode(task).length;
  if (bytes > MAX_TASK_BYTES) {
    throw usage(
      `Task text is ${Math.ceil(bytes / 1024)} KB; the limit is ${
        MAX_TASK_BYTES / 1024
      } KB: put the details in a file and name it in the task`,
      { bytes, limit: MAX_TASK_BYTES },
    );
  }
}

/** The longest task text, in bytes of UTF-8: agents' input boxes are not made for more. */
export const MAX_TASK_BYTES = 32 * 1024;

/** Refuses a state that is not stored. */
export function checkState(state: string): void {
  if (isStoredState(state)) return;
  const why = isShownState(state) ? "is computed when shown and cannot be set" : "is not a state";
  throw usage(`'${state}' ${why}: use sent, pending, blocked or done`, { state });
}

/** Refuses a pane with an empty id. */
export function checkPane(pane: LedgerPane): void {
  if (pane.id.trim() === "") throw usage("Pane id is empty");
}
