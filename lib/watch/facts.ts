/**
 * What the watcher has to say, worked out from what it sees: the fact an
 * idle pane brings (its pending task, if one waits), the facts that need no
 * event (interrupted and gone tasks), what a pane's unread flags still tell
 * after a new connection, and a host that went or came back. Each fact
 * comes with the key it is told under, so nothing is told twice in a run.
 *
 * @module
 */

import type { PaneInfo, UnreadReason } from "../protocol/panes.ts";
import { type FollowedPane, followedUid } from "./follow.ts";
import { PANE_NEWS } from "./host_follow.ts";
import { type Fact, hostFactKey } from "./lines.ts";
import type { ToldLog } from "./told.ts";
import type { WatchView } from "./view.ts";

/** The pane events that may change what the watcher says. */
export const INTERESTING: ReadonlySet<string> = new Set([
  "turn-start",
  ...PANE_NEWS,
  "pane-restored",
]);

/** The unread reasons that are news for the agent, and the fact each brings. */
const LINE_REASONS: Partial<Record<UnreadReason, Fact["kind"]>> = {
  "turn-end": "idle",
  "idle-no-turn": "idle",
  "exit": "exit",
  "agent-exit": "agent-exit",
};

/** A fact, and the key it is told under (once a run). */
export interface KeyedFact {
  /** The fact. */
  fact: Fact;
  /** What brought it: told once in a run. */
  key: string;
}

/** The idle fact for a followed pane: the pending form when a task waits there. */
export function idleFact(
  followed: FollowedPane,
  seen: { view: WatchView; told: ToldLog },
): Fact | undefined {
  const uid = followedUid(followed);
  if (!uid) return undefined;
  const pending = seen.view.waiting(followed)[0];
  if (pending && !seen.told.pendingTold(followed.pane)) {
    return {
      pane: followed.pane,
      name: followed.name,
      uid,
      kind: "pending",
      pending: pending.uid,
    };
  }
  return { pane: followed.pane, name: followed.name, uid, kind: "idle" };
}

/** Facts that need no event: interrupted and gone tasks. */
export function standingFacts(view: WatchView): KeyedFact[] {
  const facts: KeyedFact[] = [];
  for (const followed of view.followed.values()) {
    for (const task of followed.interrupted) {
      facts.push({
        fact: { pane: followed.pane, name: followed.name, uid: task.uid, kind: "interrupted" },
        key: `interrupted:${task.uid}`,
      });
    }
    if (followed.gone) {
      const uid = followedUid(followed)!;
      facts.push({
        fact: { pane: followed.pane, name: followed.name, uid, kind: "gone" },
        key: `gone:${uid}`,
      });
    }
  }
  return facts;
}

/**
 * What the followed panes' unread flags still tell (`panes` by key): the
 * newest reason not told in this run, or a pending task that waits in an
 * idle pane.
 */
export function unreadFacts(
  panes: ReadonlyMap<string, PaneInfo>,
  seen: { view: WatchView; told: ToldLog },
): KeyedFact[] {
  const facts: KeyedFact[] = [];
  for (const followed of seen.view.followed.values()) {
    const pane = panes.get(followed.pane);
    if (!pane) continue;
    // What the agent was told in this run is not news again, only what came since.
    const told = seen.told.reasons(followed.pane);
    const reason = [...pane.unread_reasons].reverse().find((r) =>
      LINE_REASONS[r] && !told.includes(r)
    );
    if (reason) {
      const kind = LINE_REASONS[reason]!;
      const fact = kind === "idle"
        ? idleFact(followed, seen)
        : { pane: followed.pane, name: followed.name, uid: followedUid(followed)!, kind };
      if (fact) {
        facts.push({ fact, key: `unread:${followed.pane}:${pane.unread_reasons.join(",")}` });
      }
    } else if (pane.state === "idle" && seen.view.waiting(followed).length > 0) {
      const fact = idleFact(followed, seen);
      if (fact?.kind === "pending") {
        facts.push({ fact, key: `pending:${followed.pane}:${fact.pending}` });
      }
    }
  }
  return facts;
}

/** The fact that `host` went away or is back, with the open tasks that wait on it. */
export function hostFact(view: WatchView, host: string, kind: "host-down" | "host-up"): KeyedFact {
  return {
    fact: { pane: hostFactKey(host), name: host, uid: "", kind, tasks: view.hosts.get(host) ?? 0 },
    key: `${kind}:${host}:${Date.now()}`,
  };
}
