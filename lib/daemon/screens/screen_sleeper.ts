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
}

/** Puts quiet panes' screens to sleep. */
export class ScreenSleeper {
  readonly #options: ScreenSleeperOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #slept = 0;
  /** Screens went to sleep since memory was last given back. */
  #freed = false;
  #gaveBackAt = -Infinity;

  /** Looks at `options.panes` once started. */
  constructor(options: ScreenSleeperOptions) {
    this.#options = options;
  }

  /** Sweeps every {@linkcode SWEEP_MS} until {@linkcode stop}. */
  start(): void {
    this.#timer ??= setInterval(() => this.sweep(), SWEEP_MS);
    // A sweep must not keep skiffd's event loop alive on its own.
    Deno.unrefTimer(this.#timer);
  }

  /** Sweeps no more. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Puts every screen that may sleep to sleep now; returns how many went. */
  sweep(): number {
    const after = this.#options.afterSeconds();
    let slept = 0;
    if (after > 0) {
      for (const pane of this.#options.panes()) {
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
    return slept;
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
