/**
 * The dashboard's keys, as `?` shows them (and docs/dashboard.md lists them).
 *
 * @module
 */

/** One line of help: the keys and what they do. */
export interface KeyHelp {
  /** The keys, as a person presses them. */
  keys: string;
  /** What they do. */
  what: string;
}

/** The keys of the list, in the order `?` shows them. */
export const LIST_KEYS: readonly KeyHelp[] = [
  { keys: "j k ↓ ↑", what: "move (PgUp PgDn Home End too)" },
  { keys: "Enter", what: "open the pane full screen; Ctrl+\\ comes back here" },
  { keys: "w", what: "select the next pane that needs you (waiting, then unread)" },
  { keys: "W", what: "open the next pane that needs you" },
  { keys: "a", what: "sort: projects and sessions, or attention first" },
  { keys: "/", what: "filter by name, project, session, agent or state (Esc clears)" },
  { keys: "s", what: "send a one-line prompt to the agent (guarded, as skiff send --enter)" },
  { keys: "S", what: "open the Skiff agent (as skiff skipper)" },
  { keys: "c", what: "new pane: project, agent, name" },
  { keys: "r", what: "rename the pane" },
  { keys: "x", what: "kill the pane (asks first)" },
  { keys: "m", what: "mark the pane seen" },
  { keys: "d", what: "the pane's worktree diff in the pager (as skiff diff); q comes back" },
  { keys: "L", what: "land the pane's worktree on its base (as skiff land; asks first)" },
  { keys: "l", what: "the ledger: plans and tasks" },
  { keys: "?", what: "this help" },
  { keys: "q", what: "quit (Ctrl+C too)" },
];

/** The keys of the ledger view. */
export const LEDGER_KEYS: readonly KeyHelp[] = [
  { keys: "j k ↓ ↑", what: "move" },
  { keys: "Enter", what: "open the task's pane" },
  { keys: "o", what: "show the task's result file" },
  { keys: "l Esc", what: "back to the list" },
];

/** The hints in the status row when it has nothing to say. */
export const LIST_HINTS =
  "j/k move · Enter open · w next · / filter · s send · c new · l ledger · ? help · q quit";

/** The ledger view's hints. */
export const LEDGER_HINTS = "j/k move · Enter open pane · o result · l/Esc back · q quit";

/** The result view's hints. */
export const RESULT_HINTS = "j/k scroll · Esc back · q quit";
