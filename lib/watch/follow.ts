/**
 * Which panes the watcher follows, and which task it follows in each: the
 * panes of open tasks (stored `sent`, `pending` or `blocked`; plans are
 * ignored), read from the ledger and the live panes.
 *
 * @module
 */

import {
  type Liveness,
  paneKey,
  type ShownState,
  type TaskRow,
  taskShownState,
} from "../ledger/mod.ts";

/** What the watcher follows in one pane. */
export interface FollowedPane {
  /** The pane's key: its id, or `HOST:ID` for a pane on another host. */
  pane: string;
  /** The pane's host, or null for this machine. */
  host: string | null;
  /** Its name for lines: the live name, else the stored one, else the id. */
  name: string;
  /** The most recently sent open task (sent or blocked, not interrupted), if any. */
  current?: TaskRow;
  /** Its pending tasks, oldest first. */
  pending: TaskRow[];
  /** Its tasks that show interrupted (the pane restarted after the send). */
  interrupted: TaskRow[];
  /** Whether the pane no longer exists (its open tasks show gone). */
  gone: boolean;
  /** Every open task in the pane with the state it shows. */
  tasks: { row: TaskRow; state: ShownState }[];
}

/** The uid a line names for the pane: the followed task, else the oldest pending one. */
export function followedUid(followed: FollowedPane): string | undefined {
  return followed.current?.uid ?? followed.pending[0]?.uid ?? followed.interrupted.at(-1)?.uid ??
    followed.tasks.at(-1)?.row.uid;
}

function sentOrder(a: TaskRow, b: TaskRow): number {
  return (a.sentAt ?? a.createdAt).localeCompare(b.sentAt ?? b.createdAt) || a.id - b.id;
}

/**
 * Groups the open tasks of `rows` by pane key (`paneKey`: the id, or
 * `HOST:ID` on another host). `liveness` says which panes live (and their
 * generations); `names` gives the live names of panes by key (`HOST:NAME`
 * for a pane on another host, as lines name it).
 */
export function followedPanes(
  rows: readonly TaskRow[],
  liveness: Liveness,
  names: ReadonlyMap<string, string> = new Map(),
): Map<string, FollowedPane> {
  const panes = new Map<string, FollowedPane>();
  const open = rows.filter((r) =>
    r.kind === "task" && r.pane !== null &&
    (r.state === "sent" || r.state === "pending" || r.state === "blocked")
  ).sort((a, b) => a.id - b.id);
  for (const row of open) {
    const id = paneKey(row.host, row.pane!);
    let followed = panes.get(id);
    if (!followed) {
      const stored = row.paneName ?? row.pane!;
      followed = {
        pane: id,
        host: row.host,
        name: names.get(id) ?? (row.host ? `${row.host}:${stored}` : stored),
        pending: [],
        interrupted: [],
        gone: false,
        tasks: [],
      };
      panes.set(id, followed);
    }
    const shown = taskShownState(row, liveness);
    followed.tasks.push({ row, state: shown });
    // Nothing is known of a pane whose host cannot be reached: it keeps its stored state.
    const state = shown === "unreachable" ? row.state : shown;
    if (state === "gone") followed.gone = true;
    else if (state === "pending") followed.pending.push(row);
    else if (state === "interrupted") followed.interrupted.push(row);
    else if (!followed.current || sentOrder(followed.current, row) <= 0) followed.current = row;
  }
  return panes;
}
