/**
 * Task states: the four that are stored, and the two that are only shown.
 *
 * | state         | stored | meaning                                              |
 * |---------------|--------|------------------------------------------------------|
 * | `sent`        | yes    | delivered to its pane                                |
 * | `pending`     | yes    | waiting to be delivered                              |
 * | `blocked`     | yes    | delivered, but the agent did not start working on it |
 * | `done`        | yes    | finished                                             |
 * | `interrupted` | no     | sent or blocked, then the pane's process restarted   |
 * | `gone`        | no     | not done, and its pane has been closed               |
 * | `open`        | no     | a plan with no tasks: nothing was sent for it        |
 *
 * The shown states need to know which panes are alive, and the generation of
 * each: that is the {@linkcode Liveness} input. When it is `null` (skiffd does
 * not run, so nobody knows), a task shows its stored state.
 *
 * @module
 */

/** The states that the ledger stores. */
export const STORED_STATES = ["sent", "pending", "blocked", "done"] as const;

/** A state that the ledger stores. */
export type StoredState = typeof STORED_STATES[number];

/**
 * Every state a row can show: the stored ones plus `interrupted` and `gone`
 * (the spec's), and `open` (Skiff's own, for a plan with no tasks).
 */
export const SHOWN_STATES = [...STORED_STATES, "interrupted", "gone", "open"] as const;

/** A state that a row shows. */
export type ShownState = typeof SHOWN_STATES[number];

/** What is known about one live pane. */
export interface PaneLiveness {
  /** The start time of the pane's process, in ms since the epoch; `null` if unknown. */
  generation: number | null;
}

/**
 * The live panes by pane id, or `null` when liveness is unknown (skiffd does
 * not run). A pane missing from the map has been closed.
 */
export type Liveness = ReadonlyMap<string, PaneLiveness> | null;

/** Whether a string is a stored state. */
export function isStoredState(value: string): value is StoredState {
  return (STORED_STATES as readonly string[]).includes(value);
}

/** Whether a string is a state a row can show. */
export function isShownState(value: string): value is ShownState {
  return (SHOWN_STATES as readonly string[]).includes(value);
}

/** The fields of a task that its shown state depends on. */
export interface StateInput {
  /** The pane id; `null` for a plan. */
  pane: string | null;
  /** The stored generation; `null` when unknown. */
  generation: number | null;
  /** The stored state. */
  state: StoredState;
}

/**
 * The state a task shows.
 *
 * - `gone` when the task is not done and its pane is not among the live panes.
 * - `interrupted` when the task is `sent` or `blocked` and the pane's current
 *   generation differs from the stored one. When either generation is unknown
 *   (`null`), nothing can be said, and the task shows its stored state.
 * - Otherwise, and always when `liveness` is `null`, the stored state.
 */
export function taskShownState(task: StateInput, liveness: Liveness): ShownState {
  if (liveness === null || task.pane === null || task.state === "done") return task.state;
  const pane = liveness.get(task.pane);
  if (pane === undefined) return "gone";
  if (task.state !== "sent" && task.state !== "blocked") return task.state;
  if (pane.generation === null || task.generation === null) return task.state;
  return pane.generation === task.generation ? task.state : "interrupted";
}

/**
 * The state a plan shows. A plan with tasks shows `done` when every task is
 * done and `sent` while any is open (the spec's rule). A plan without tasks
 * shows `open` while it is stored as `sent`, how every plan is stored: it
 * would otherwise say `sent` when nothing was; any other stored state
 * (`done`, or one set by hand) shows as it is.
 */
export function planShownState(plan: StateInput, tasks: readonly StateInput[]): ShownState {
  if (tasks.length === 0) return plan.state === "sent" ? "open" : plan.state;
  return tasks.every((t) => t.state === "done") ? "done" : "sent";
}

/** Whether a shown state counts as open (anything but `done`). */
export function isOpen(state: ShownState): boolean {
  return state !== "done";
}
