/**
 * At most one call per interval, and never a change left untold: the first
 * poke runs at once, pokes within the interval after it run once at its end.
 *
 * @module
 */

/** Runs `run` at most once per `intervalMs`, the last poke always followed by a run. */
export class Throttle {
  readonly #run: () => void;
  readonly #intervalMs: number;
  #last = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** A throttle for `run`. */
  constructor(run: () => void, intervalMs: number) {
    this.#run = run;
    this.#intervalMs = intervalMs;
  }

  /** Asks for a run: now, or at the end of the interval when one ran within it. */
  poke(): void {
    if (this.#timer !== undefined) return;
    const wait = this.#last + this.#intervalMs - performance.now();
    if (wait <= 0) return this.#fire();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fire();
    }, wait);
  }

  #fire(): void {
    this.#last = performance.now();
    this.#run();
  }

  /** Drops a run that was waiting. */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
