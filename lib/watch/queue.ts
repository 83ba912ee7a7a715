/**
 * The lines that wait to be typed: one fact per pane, the newest; an idle
 * line goes when its pane works or waits again.
 *
 * @module
 */

import type { Fact } from "./lines.ts";

/** The facts waiting for the Skiff agent to be ready, one per pane. */
export class WakeQueue {
  readonly #facts = new Map<string, Fact>();

  /** Adds a fact; a newer fact for the same pane replaces the older one. */
  put(fact: Fact): void {
    this.#facts.delete(fact.pane);
    this.#facts.set(fact.pane, fact);
  }

  /** Drops the pane's idle or pending fact: the pane works or waits again. */
  dropIdle(pane: string): boolean {
    const fact = this.#facts.get(pane);
    if (!fact || (fact.kind !== "idle" && fact.kind !== "pending")) return false;
    return this.#facts.delete(pane);
  }

  /** Drops a pane's fact, whatever it is. */
  drop(pane: string): boolean {
    return this.#facts.delete(pane);
  }

  /** The waiting facts, oldest first. */
  get facts(): Fact[] {
    return [...this.#facts.values()];
  }

  /** How many facts wait. */
  get size(): number {
    return this.#facts.size;
  }

  /** Removes facts that were typed (those still the same as when they were read). */
  take(done: readonly Fact[]): void {
    for (const fact of done) {
      if (this.#facts.get(fact.pane) === fact) this.#facts.delete(fact.pane);
    }
  }
}
