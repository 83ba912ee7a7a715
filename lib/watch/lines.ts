/**
 * The lines the watcher types for the Skiff agent, one form per fact, and
 * how waiting lines are joined into one.
 *
 * Every line about a pane starts with `[watch] pane NAME UID`: the pane's
 * name (its id when it has none; `HOST:NAME` for a pane on another host)
 * and the task the watcher follows in that pane. A line about a host that
 * went away or came back starts with `[watch] host HOST`.
 *
 * @module
 */

/** What happened in a followed pane (or to a host) that the Skiff agent must hear about. */
export type FactKind =
  | "idle"
  | "pending"
  | "exit"
  | "agent-exit"
  | "gone"
  | "interrupted"
  | "host-down"
  | "host-up";

/** One fact about one pane, or about one host (`host-down`, `host-up`). */
export interface Fact {
  /** The pane's key (its id, or `HOST:ID`), or `@HOST` for a fact about a host. */
  pane: string;
  /** The pane's name, or its id when it has none. */
  name: string;
  /** The uid of the task the fact is about: the one followed in the pane. */
  uid: string;
  /** What happened. */
  kind: FactKind;
  /** For `pending`: the uid of the oldest pending task in the pane. */
  pending?: string;
  /** For a host's facts: how many open tasks wait on it. */
  tasks?: number;
}

/** The queue key of the facts about host `host`: no pane key starts with `@`. */
export function hostFactKey(host: string): string {
  return `@${host}`;
}

const READ = "Read it, then mark it seen.";

/** The line the agent gets for `fact`. */
export function lineOf(fact: Fact): string {
  if (fact.kind === "host-down" || fact.kind === "host-up") {
    const tasks = fact.tasks === 1 ? "1 task waits" : `${fact.tasks ?? 0} tasks wait`;
    return fact.kind === "host-down"
      ? `[watch] host ${fact.name} is unreachable: ${tasks}. Its panes may be fine; you hear when it is back.`
      : `[watch] host ${fact.name} is back: ${tasks}. See them with skiff ledger ls.`;
  }
  const head = `[watch] pane ${fact.name} ${fact.uid}`;
  switch (fact.kind) {
    case "idle":
      return `${head} is idle. ${READ}`;
    case "pending":
      return `${head} is idle: task ${fact.pending} is pending: skiff ledger send ${fact.pending} --enter. ${READ}`;
    case "exit":
      return `${head} exited. ${READ}`;
    case "agent-exit":
      return `${head}: its agent exited. ${READ}`;
    case "gone":
      return `${head} is gone: the pane no longer exists. Update the task in the ledger.`;
    case "interrupted":
      return `${head} is interrupted: the pane restarted after the send. Read it, then send the task again with skiff ledger send ${fact.uid} --enter, or update it.`;
  }
}

/** Joins lines that waited into one line to type: never a line break inside. */
export function joinLines(lines: readonly string[]): string {
  return lines.map((line) => line.replace(/\s*[\r\n]+\s*/g, " ").trim()).join(" ");
}
