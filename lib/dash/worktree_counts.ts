/**
 * Keeping the selected pane's worktree count fresh. skiffd counts a
 * worktree when a turn ends, so an agent's row follows its work; a shell's
 * commits end no turn, and its count would stay as old as its last one. So
 * the dashboard asks skiffd to count the selected pane's worktree when the
 * selection comes to it, and again once its screen has been quiet for a
 * moment after it printed (a command ran), at most every
 * {@linkcode COUNT_EVERY_MS}. The count comes back as a `worktree` event.
 *
 * @module
 */

import type { ListedPane } from "../protocol/workspace.ts";

/** How long the selected pane's screen stays quiet before its worktree is counted again. */
export const QUIET_MS = 700;

/** The least time between two counts asked for one pane while it prints. */
export const COUNT_EVERY_MS = 3000;

/** Asks for counts of the selected pane's worktree. */
export class WorktreeCounts {
  readonly #ask: (pane: string) => void;
  #pane: string | undefined;
  #askedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Counts asked for through `ask` (a `pane.worktree` request to skiffd). */
  constructor(ask: (pane: string) => void) {
    this.#ask = ask;
  }

  /** The selection is `pane` now: its worktree is counted when the selection came to it. */
  selected(pane: ListedPane | null): void {
    const id = pane?.worktree ? pane.id : undefined;
    if (id === this.#pane) return;
    this.#clear();
    this.#pane = id;
    if (id !== undefined) this.#askNow();
  }

  /** The selected pane's screen changed: its worktree is counted once it is quiet. */
  printed(): void {
    if (this.#pane === undefined) return;
    this.#askIn(QUIET_MS);
  }

  /** Asks for nothing more. */
  close(): void {
    this.#clear();
    this.#pane = undefined;
  }

  /** Asks in `ms`, or later when the last ask was too recent; a new call moves it. */
  #askIn(ms: number): void {
    this.#clear();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const wait = COUNT_EVERY_MS - (Date.now() - this.#askedAt);
      if (wait > 0) this.#askIn(wait);
      else this.#askNow();
    }, ms);
  }

  #askNow(): void {
    this.#askedAt = Date.now();
    this.#ask(this.#pane!);
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
