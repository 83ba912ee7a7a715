/**
 * Which panes need a person first: a pane waiting for an answer, then an
 * unread one (a turn ended, an exit, a bell), then one at work, then the
 * rest. The dashboard's attention sort and its jump key use it.
 *
 * @module
 */

import type { ListedPane } from "../protocol/workspace.ts";

/** A pane's place in the attention order: 0 waiting, 1 unread, 2 working, 3 the rest. */
export function attentionRank(pane: Pick<ListedPane, "state" | "unread">): number {
  if (pane.state === "waiting") return 0;
  if (pane.unread) return 1;
  if (pane.state === "working") return 2;
  return 3;
}

/** Whether a pane needs a person: it waits, or it is unread. */
export function needsAttention(pane: Pick<ListedPane, "state" | "unread">): boolean {
  return attentionRank(pane) <= 1;
}

/**
 * `panes` in the attention order; panes of the same rank keep their order
 * (the sort is stable).
 */
export function byAttention<T extends Pick<ListedPane, "state" | "unread">>(
  panes: readonly T[],
): T[] {
  return panes.map((pane, i) => ({ pane, i, rank: attentionRank(pane) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((entry) => entry.pane);
}

/**
 * The next pane that needs a person after the one with id `after`: a
 * waiting pane first (the next one in list order after `after`, going round),
 * else an unread one; `undefined` when none does.
 */
export function nextForAttention<T extends Pick<ListedPane, "id" | "state" | "unread">>(
  panes: readonly T[],
  after: string | null,
): T | undefined {
  const start = panes.findIndex((pane) => pane.id === after);
  const round = [...panes.slice(start + 1), ...panes.slice(0, start + 1)];
  for (const rank of [0, 1]) {
    const found = round.find((pane) => attentionRank(pane) === rank && pane.id !== after);
    if (found) return found;
  }
  // The selected pane itself may be the only one that needs a person.
  const self = panes.find((pane) => pane.id === after);
  return self && needsAttention(self) ? self : undefined;
}
