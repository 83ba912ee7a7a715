/**
 * The lines the watcher types for the Skiff agent, one form per fact, and
 * how waiting lines are joined into one.
 *
 * Every line starts with `[watch] pane NAME UID`: the pane's name (its id
 * when it has none) and the task the watcher follows in that pane.
 *
 * @module
 */

/** What happened in a followed pane that the Skiff agent must hear about. */
export type FactKind = "idle" | "pending" | "exit" | "agent-exit" | "gone" | "interrupted";

/** One fact about one pane. */
export interface Fact {
  /** The pane's id. */
  pane: string;
  /** The pane's name, or its id when it has none. */
  name: string;
  /** The uid of the task the fact is about: the one followed in the pane. */
  uid: string;
  /** What happened. */
  kind: FactKind;
  /** For `pending`: the uid of the oldest pending task in the pane. */
  pending?: string;
}

const READ = "Read it, then mark it seen.";

/** The line the agent gets for `fact`. */
export function lineOf(fact: Fact): string {
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
