/**
 * Task states: the four that are stored, and those that are only shown.
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
 * | `unreachable` | no     | not done, and its pane's host cannot be reached now  |
 * | `landed`      | no     | done, and `skiff land` put its work on the base      |
 *
 * The shown states need to know which panes are alive, and the generation of
 * each: that is the {@linkcode Liveness} input. When it is `null` (skiffd does
 * not run, so nobody knows), a task shows its stored state. A task on a pane
 * of another host whose host cannot be reached shows `unreachable`, never
 * `gone`: the pane may be fine.
 *
 * @module
 */

/** The states that the ledger stores. */
export const STORED_STATES = ["sent", "pending", "blocked", "done"] as const;

/** A state that the ledger stores. */
export type StoredState = typeof STORED_STATES[number];

/**
 * Every state a row can show: the stored ones plus `interrupted` and `gone`
 * (the spec's), `open` (Skiff's own, for a plan with no tasks),
 * `unreachable` (Skiff's own, for a task whose host cannot be reached) and
 * `landed` (Skiff's own, for a done task whose work `skiff land` put on the
 * base: the ledger keeps the commit range).
 */
export const SHOWN_STATES = [
  ...STORED_STATES,
  "interrupted",
  "gone",
  "open",
  "unreachable",
  "landed",
] as const;

/** A state that a row shows. */
export type ShownState = typeof SHOWN_STATES[number];

/** What is known about one live pane. */
export interface PaneLiveness {
  /** The start time of the pane's process, in ms since the epoch; `null` if unknown. */
  generation: number | null;
}

/**
 * The live panes by {@linkcode paneKey} (the pane id, or `HOST:ID` for a
 * pane on another host), or `null` when liveness is unknown (skiffd does
 * not run). A pane missing from the map has been closed. A host's panes
 * count only when the map also holds {@linkcode listedKey} for it (its
 * panes were listed); a host that cannot be reached has
 * {@linkcode unreachableKey} instead; a host with neither is not known, and
 * its tasks show their stored state.
 */
export type Liveness = ReadonlyMap<string, PaneLiveness> | null;

/** The key of a pane in a {@linkcode Liveness}: its id, or `HOST:ID` on another host. */
export function paneKey(host: string | null | undefined, pane: string): string {
  return host ? `${host}:${pane}` : pane;
}

/** The key that marks host `host` unreachable in a {@linkcode Liveness}: `HOST:`. */
export function unreachableKey(host: string): string {
  return `${host}:`;
}

/** The key that says host `host`'s panes were listed in a {@linkcode Liveness}: `HOST:*`. */
export function listedKey(host: string): string {
  return `${host}:*`;
}

/**
 * Adds what is known of host `host` to `liveness`: its panes (by their ids
 * on that host) when they were listed, or `null` when it cannot be reached.
 */
export function addHostLiveness(
  liveness: Map<string, PaneLiveness>,
  host: string,
  panes: readonly { id: string; generation?: number | null }[] | null,
): void {
  if (panes === null) {
    liveness.set(unreachableKey(host), { generation: null });
    return;
  }
  liveness.set(listedKey(host), { generation: null });
  for (const p of panes) liveness.set(paneKey(host, p.id), { generation: p.generation ?? null });
}

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
  /** The pane's host, or `null` (or absent) for this machine. */
  host?: string | null;
  /** The stored generation; `null` when unknown. */
  generation: number | null;
  /** The stored state. */
  state: StoredState;
  /** Whether `skiff land` landed its work (a row of a ledger before version 5: absent). */
  landed?: unknown;
}

/**
 * The state a task shows.
 *
 * - `landed` when it is done and `skiff land` landed its work (the landing
 *   marks it done); whatever the liveness says.
 * - `unreachable` when the task is not done and its pane's host cannot be
 *   reached: nothing is known of the pane. A host not asked shows the stored
 *   state.
 * - `gone` when the task is not done and its pane is not among the live panes.
 * - `interrupted` when the task is `sent` or `blocked` and the pane's current
 *   generation differs from the stored one. When either generation is unknown
 *   (`null`), nothing can be said, and the task shows its stored state.
 * - Otherwise, and always when `liveness` is `null`, the stored state.
 */
export function taskShownState(task: StateInput, liveness: Liveness): ShownState {
  if (task.state === "done") return task.landed ? "landed" : "done";
  if (liveness === null || task.pane === null) return task.state;
  if (task.host && liveness.has(unreachableKey(task.host))) return "unreachable";
  if (task.host && !liveness.has(listedKey(task.host))) return task.state;
  const pane = liveness.get(paneKey(task.host, task.pane));
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

/** Whether a shown state counts as open (anything but `done` and `landed`). */
export function isOpen(state: ShownState): boolean {
  return state !== "done" && state !== "landed";
}
