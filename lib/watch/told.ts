/**
 * What the watcher told the Skiff agent in this run, so that nothing is told
 * twice: the facts typed (by the key of what brought them), the panes told
 * of a pending task in their current idle stretch, and each pane's unread
 * reasons when it was last told about (until the pane is seen), and what it
 * last told of each other host (unreachable, or back).
 *
 * @module
 */

import type { UnreadReason } from "../protocol/panes.ts";
import type { Fact } from "./lines.ts";
import type { WakeQueue } from "./queue.ts";

/** The watcher's memory of one run. */
export class ToldLog {
  readonly #told = new Set<string>();
  readonly #pendingTold = new Set<string>();
  readonly #reasons = new Map<string, UnreadReason[]>();
  readonly #hosts = new Map<string, "host-down" | "host-up">();
  /** The key each queued fact stands for, told once it is typed. */
  readonly #keys = new Map<Fact, string>();

  /** Puts `fact` in `queue` unless it was told already in this run under `key`. */
  put(queue: WakeQueue, fact: Fact, key: string): void {
    if (this.#told.has(key)) return;
    queue.put(fact);
    this.#keys.set(fact, key);
  }

  /** Whether `pane` was told of a pending task in its current idle stretch. */
  pendingTold(pane: string): boolean {
    return this.#pendingTold.has(pane);
  }

  /** The pane works or waits again: its idle stretch ended. */
  busyAgain(pane: string): void {
    this.#pendingTold.delete(pane);
  }

  /** The pane was marked seen: what it was unread for is forgotten. */
  seen(pane: string): void {
    this.#reasons.delete(pane);
  }

  /** What the agent was last told of `host`: unreachable, or back (or nothing yet). */
  hostTold(host: string): "host-down" | "host-up" | undefined {
    return this.#hosts.get(host);
  }

  /** The pane's unread reasons when the agent was last told about it. */
  reasons(pane: string): readonly UnreadReason[] {
    return this.#reasons.get(pane) ?? [];
  }

  /**
   * The facts went in (or may have): they leave `queue` and are never told
   * again in this run. `unread` gives a pane's unread reasons now.
   */
  consume(
    queue: WakeQueue,
    facts: readonly Fact[],
    unread: (pane: string) => readonly UnreadReason[],
  ): void {
    for (const fact of facts) {
      if (fact.kind === "host-down" || fact.kind === "host-up") {
        this.#hosts.set(fact.name, fact.kind);
      }
    }
    queue.take(facts);
    for (const fact of facts) {
      const before = this.#reasons.get(fact.pane) ?? [];
      this.#reasons.set(fact.pane, [...new Set([...before, ...unread(fact.pane)])]);
      const key = this.#keys.get(fact);
      if (key) this.#told.add(key);
      this.#keys.delete(fact);
      if (fact.kind === "pending") this.#pendingTold.add(fact.pane);
    }
  }
}
