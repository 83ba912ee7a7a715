/**
 * The screens of one workspace's panes, beyond the live ones: saved in the
 * background for a restore after a crash (`screen_saver.ts`, into
 * `screen_store.ts`'s files), and put to sleep while quiet
 * (`screen_sleeper.ts`), which waits for a pane's save.
 *
 * @module
 */

import type { Pane } from "../panes/mod.ts";
import type { HistoryCount } from "./screen_store.ts";
import { ScreenStore } from "./screen_store.ts";
import { ScreenSaver, type ScreenSaveStats } from "./screen_saver.ts";
import { ScreenSleeper, type ScreenSleepStats } from "./screen_sleeper.ts";

/**
 * Panes printing faster than this, all together, keep saving and sleeping
 * screens to their small share of skiffd's time. A flood prints megabytes a
 * second; a ticker, a log or an agent at work prints a few kilobytes, which
 * costs skiffd next to nothing: under this, screens are saved and put to
 * sleep at the quiet share (with a ticker in one pane, 1,000 quiet screens
 * took over 20 minutes to sleep at the small share).
 */
export const BUSY_BYTES_PER_SECOND = 256 * 1024;
/** The shortest time the print rate is measured over. */
const RATE_WINDOW_MS = 500;

/** How fast a set of panes prints, from their output counts. */
export class PrintRate {
  readonly #panes: () => Iterable<Pane>;
  #at: number | undefined;
  #bytes = 0;
  #rate = 0;

  /** Measures `panes`. */
  constructor(panes: () => Iterable<Pane>) {
    this.#panes = panes;
  }

  /** Bytes a second the panes printed lately (0 at the first call). */
  perSecond(now: number = performance.now()): number {
    if (this.#at !== undefined && now - this.#at < RATE_WINDOW_MS) return this.#rate;
    let bytes = 0;
    for (const pane of this.#panes()) bytes += pane.outputBytes;
    // A pane killed takes its count with it: that is no negative rate.
    this.#rate = this.#at === undefined
      ? 0
      : Math.max(0, bytes - this.#bytes) / ((now - this.#at) / 1000);
    this.#at = now;
    this.#bytes = bytes;
    return this.#rate;
  }

  /** Whether the panes print fast enough to cost skiffd real time. */
  busy(): boolean {
    return this.perSecond() > BUSY_BYTES_PER_SECOND;
  }
}

/** Options for {@linkcode PaneScreens}. */
export interface PaneScreensOptions {
  /** The folder of the saved screens. */
  dir: string;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Every live pane. */
  panes: () => Iterable<Pane>;
  /** Seconds of quiet before a screen sleeps; 0 never (`[daemon] screen_sleep_seconds`). */
  sleepAfterSeconds: () => number;
}

/** Saving and sleeping the screens of a workspace's panes. */
export class PaneScreens {
  /** The saved screens on disk. */
  readonly store: ScreenStore;
  /** Saves each pane's screen after it changes. */
  readonly saver: ScreenSaver;
  readonly #sleeper: ScreenSleeper;

  /** Follows `options.panes`; sleeping starts at once. */
  constructor(options: PaneScreensOptions) {
    const rate = new PrintRate(options.panes);
    this.store = new ScreenStore(options.dir, { log: options.log });
    this.saver = new ScreenSaver({
      store: this.store,
      log: options.log,
      busy: () => rate.busy(),
    });
    this.#sleeper = new ScreenSleeper({
      panes: options.panes,
      afterSeconds: options.sleepAfterSeconds,
      unsaved: (pane) => this.saver.unsaved(pane),
      busy: () => rate.busy(),
    });
    this.#sleeper.start();
  }

  /** Where a pane's saved screen stands: its history file's count, and whether it changed since. */
  standing(pane: Pane): { unsaved: boolean; history: HistoryCount } | undefined {
    return this.saver.standing(pane);
  }

  /** What saving and sleeping screens have done so far, for `skiff daemon status`. */
  stats(): ScreenSaveStats & ScreenSleepStats {
    return { ...this.saver.stats, ...this.#sleeper.stats() };
  }

  /** A pane is gone for good: its screen is neither saved nor kept. */
  forget(pane: Pane): void {
    this.saver.forget(pane);
    this.store.remove(pane.id);
  }

  /** skiffd stops: every changed screen is saved now, and nothing sleeps or is saved after. */
  stop(): void {
    this.#sleeper.stop();
    this.saver.saveAllAndStop();
  }
}
