/**
 * When the dashboard draws: a frame at most every {@linkcode FRAME_MS}, so
 * a burst of changes costs one frame, and one more when the age of a
 * state ("12s", "5m") would read differently, so ages stay true without a
 * redraw every second per pane.
 *
 * @module
 */

import type { ListedPane } from "../../protocol/workspace.ts";
import { agoChangesIn } from "./text.ts";

/** The shortest time between two frames (ms): about 60 a second at most. */
export const FRAME_MS = 16;

/** Decides when the next frame is drawn. */
export class FrameClock {
  readonly #draw: () => void;
  readonly #paused: () => boolean;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  #ageTimer: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = 0;

  /** A clock that calls `options.draw` when a frame is due, and never while `options.paused()`. */
  constructor(options: { draw: () => void; paused: () => boolean }) {
    this.#draw = options.draw;
    this.#paused = options.paused;
  }

  /** A frame is drawn now: one that was due is not drawn again. */
  drawing(): void {
    // Deno loads its timers on their first use (15 ms here): the first frame goes out before.
    if (this.#frameTimer === undefined) return;
    clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
  }

  /** The frame is drawn; `ages` are the states' ages it shows, read at `now`. */
  drawn(ages: { panes: readonly ListedPane[]; now: number } | undefined): void {
    this.#lastFrame = performance.now();
    if (this.#ageTimer !== undefined) clearTimeout(this.#ageTimer);
    this.#ageTimer = undefined;
    if (!ages || ages.panes.length === 0) return;
    let next = Infinity;
    for (const pane of ages.panes) next = Math.min(next, agoChangesIn(pane.state_since, ages.now));
    if (next === Infinity) return;
    this.#ageTimer = setTimeout(() => this.soon(), Math.max(50, next));
  }

  /** Draws a frame soon: at once when the last one is old enough, else when it is. */
  soon(): void {
    if (this.#frameTimer !== undefined || this.#paused()) return;
    const wait = Math.max(0, this.#lastFrame + FRAME_MS - performance.now());
    this.#frameTimer = setTimeout(() => this.#draw(), wait);
  }

  /** Stops every timer. */
  stop(): void {
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#ageTimer);
  }
}
