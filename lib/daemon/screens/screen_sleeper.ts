/**
 * Putting the screens of quiet panes to sleep, so that a skiffd with a
 * thousand panes holds a few KB for each idle one instead of an emulator of
 * a few hundred KB plus its history (see `lib/screen/screen.ts`).
 *
 * Every {@linkcode SWEEP_MS}, each pane whose screen nobody wrote or read
 * for `[daemon] screen_sleep_seconds`, with no terminal attached, no output
 * waiting and its last change saved, goes to sleep. Output, a capture or an
 * attach wakes it at once, as it was. Memory freed by a sweep goes back to
 * the system (the C heap holds the emulators' lines).
 *
 * @module
 */

import { deflateSync, inflateSync } from "fflate";
import type { Pane } from "../panes/mod.ts";
import type { BytePacker } from "../../screen/mod.ts";
import { collectGarbage, trimCHeap } from "../../platform/heap.ts";

/** How often the panes are looked at. */
export const SWEEP_MS = 2000;
/**
 * The time one sweep may take putting screens to sleep (each is saved whole
 * first, 10 ms for 500 lines of history, 100-200 ms for 10,000); the rest
 * wait for the next sweep, which comes as soon as the share of skiffd's
 * time allows ({@linkcode QUIET_SHARE} while no pane prints, else
 * {@linkcode BUSY_SHARE}).
 */
export const SWEEP_BUDGET_MS = 25;
/** The share of skiffd's time sleeping may take while no pane prints. */
export const QUIET_SHARE = 0.5;
/** The share while panes print. */
export const BUSY_SHARE = 0.05;

/**
 * How a sleeping screen's state is kept: deflated. A screen's escape
 * sequences repeat themselves (the same colours, the same words line after
 * line), so 500 lines of history take a tenth of their size or less, for a
 * millisecond or two each way.
 */
export const DEFLATE: BytePacker = {
  pack: (bytes) => deflateSync(bytes, { level: 1 }),
  unpack: (packed) => inflateSync(packed),
};

/** The shortest time between two times memory is given back (a full collection takes a while). */
const GIVE_BACK_MS = 10_000;

/** What sleeping screens has done so far, for `skiff daemon status`. */
export interface ScreenSleepStats {
  /** Screens asleep now. */
  asleep: number;
  /** Times a screen went to sleep. */
  slept: number;
  /** Times a screen woke. */
  wakes: number;
}

/** Options for {@linkcode ScreenSleeper}. */
export interface ScreenSleeperOptions {
  /** The panes to look at. */
  panes: () => Iterable<Pane>;
  /** Seconds of quiet before a screen sleeps; 0 never (read at each sweep: the config may change). */
  afterSeconds: () => number;
  /** Whether the pane's last change still waits to be saved (it sleeps once saved). */
  unsaved: (pane: Pane) => boolean;
  /** Whether any pane printed just now: sleeping keeps to {@linkcode BUSY_SHARE} then. */
  busy?: () => boolean;
}

/** Puts quiet panes' screens to sleep. */
export class ScreenSleeper {
  readonly #options: ScreenSleeperOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #slept = 0;
  /** Screens went to sleep since memory was last given back. */
  #freed = false;
  #gaveBackAt = -Infinity;

  /** Looks at `options.panes` once started. */
  constructor(options: ScreenSleeperOptions) {
    this.#options = options;
  }

  /** Sweeps every {@linkcode SWEEP_MS}, sooner while screens wait, until {@linkcode stop}. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#arm(SWEEP_MS);
  }

  /** Sweeps no more. */
  stop(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      const started = performance.now();
      const { more } = this.#sweep();
      if (!this.#running) return;
      const share = this.#options.busy?.() === false ? QUIET_SHARE : BUSY_SHARE;
      const spent = performance.now() - started;
      this.#arm(more ? Math.max(10, spent * (1 / share - 1)) : SWEEP_MS);
    }, ms);
    // A sweep must not keep skiffd's event loop alive on its own.
    Deno.unrefTimer(this.#timer);
  }

  /** Puts screens that may sleep to sleep now, within a sweep's budget; returns how many went. */
  sweep(): number {
    return this.#sweep().slept;
  }

  #sweep(): { slept: number; more: boolean } {
    const after = this.#options.afterSeconds();
    let slept = 0;
    let more = false;
    if (after > 0) {
      const started = performance.now();
      for (const pane of this.#options.panes()) {
        if (performance.now() - started >= SWEEP_BUDGET_MS) {
          more = true;
          break;
        }
        if (this.#maySleep(pane, after * 1000) && pane.screen.sleep(DEFLATE)) slept++;
      }
    }
    this.#slept += slept;
    this.#freed ||= slept > 0;
    const now = performance.now();
    if (this.#freed && now - this.#gaveBackAt >= GIVE_BACK_MS) {
      this.#freed = false;
      this.#gaveBackAt = now;
      // The emulators' objects go first, then the pages of the lines they held.
      collectGarbage();
      trimCHeap();
    }
    return { slept, more };
  }

  #maySleep(pane: Pane, afterMs: number): boolean {
    const screen = pane.screen;
    return !screen.asleep && screen.idleMs >= afterMs && pane.attached === 0 && !pane.held &&
      pane.pendingOutput === 0 && !this.#options.unsaved(pane);
  }

  /** What sleeping screens has done so far. */
  stats(): ScreenSleepStats {
    let asleep = 0;
    let wakes = 0;
    for (const pane of this.#options.panes()) {
      if (pane.screen.asleep) asleep++;
      wakes += pane.screen.wakes;
    }
    return { asleep, slept: this.#slept, wakes };
  }
}
