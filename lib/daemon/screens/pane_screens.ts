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

/** A pane that printed this recently makes saving keep to its small share of skiffd's time. */
const BUSY_MS = 1000;

/** Whether any of `panes` printed in the last `ms`. */
function printedWithin(panes: Iterable<Pane>, ms: number): boolean {
  const since = Date.now() - ms;
  for (const pane of panes) if (pane.outputAt > since) return true;
  return false;
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
    this.store = new ScreenStore(options.dir, { log: options.log });
    this.saver = new ScreenSaver({
      store: this.store,
      log: options.log,
      busy: () => printedWithin(options.panes(), BUSY_MS),
    });
    this.#sleeper = new ScreenSleeper({
      panes: options.panes,
      afterSeconds: options.sleepAfterSeconds,
      unsaved: (pane) => this.saver.unsaved(pane),
      busy: () => printedWithin(options.panes(), BUSY_MS),
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
