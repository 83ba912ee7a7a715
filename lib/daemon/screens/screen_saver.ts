/**
 * Saving panes' screens in the background, so that after a crash (a
 * `kill -9` of skiffd) each pane's last screen and history are on disk.
 *
 * Cheap by construction:
 * - A pane is saved once its output has been quiet for a moment
 *   ({@linkcode QUIET_MS}), or at the latest {@linkcode MAX_DELAY_MS} after
 *   it changed, so a pane that prints all the time is saved every few
 *   seconds, not after every write.
 * - A save writes only the history lines that scrolled up since the last
 *   save, plus the visible screen: its cost follows what was printed, not
 *   how long the history is.
 * - One round of saves stops after {@linkcode BUDGET_MS}, and the next
 *   round waits long enough that saving takes at most
 *   {@linkcode MAX_SHARE} of skiffd's time (saves of a pane that exits, or
 *   at a stop, are not held back); the panes left wait, oldest first. However many panes print, the cost stays bounded (a pane that
 *   floods is then saved less often). One save takes at most
 *   {@linkcode MAX_TAKE_LINES} lines of history, and at most
 *   {@linkcode FLOOD_TAKE_LINES} when more scrolled by than the
 *   scrollback holds since the last save.
 * - Files are written without a flush to the disk: they survive a crash of
 *   skiffd, which is what they are for.
 *
 * @module
 */

import type { Pane } from "../panes/mod.ts";
import { type HistoryCount, MAX_HISTORY_BYTES, type ScreenStore } from "./screen_store.ts";

/** How long a pane's output must be quiet before its screen is saved. */
export const QUIET_MS = 500;
/** The longest a changed screen waits to be saved. */
export const MAX_DELAY_MS = 3000;
/** The most time one round of saves takes before it yields to everything else. */
export const BUDGET_MS = 15;
/** The shortest gap between two rounds while panes wait. */
const ROUND_GAP_MS = 50;
/** The most of skiffd's time that saving screens takes, over rounds that follow each other. */
export const MAX_SHARE = 0.05;
/**
 * The share saving may take while no pane prints: nothing else waits for
 * the time then, and a thousand panes that just printed their history are
 * saved (and may sleep) in seconds rather than minutes.
 */
export const QUIET_SHARE = 0.5;
/** The most history lines one save writes. */
export const MAX_TAKE_LINES = 2000;
/**
 * The most history lines one save writes when lines already scrolled away
 * unsaved since the last save (a flood): there is a gap anyway, and a flood
 * is not worth the time.
 */
export const FLOOD_TAKE_LINES = 200;

/** What saving screens has cost so far, for `skiff daemon status`. */
export interface ScreenSaveStats {
  /** Screens saved. */
  saves: number;
  /** Milliseconds spent saving, in all. */
  total_ms: number;
  /** The longest single save, in ms. */
  max_ms: number;
  /** Bytes written. */
  bytes: number;
  /** Saves that failed (a full disk): the pane is saved again with its next change. */
  failures: number;
}

interface Entry {
  pane: Pane;
  /** When it first changed since its last save, or undefined when saved. */
  dirtySince?: number;
  /** When it last changed. */
  changedAt: number;
  history: HistoryCount;
  /** After a failed save: not before this time again. */
  retryAt: number;
  /** The most history lines kept before the history file starts over. */
  maxLines: number;
}

/** Options for {@linkcode ScreenSaver}. */
export interface ScreenSaverOptions {
  /** Where screens go. */
  store: ScreenStore;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Whether any pane printed just now: saving keeps to {@linkcode MAX_SHARE} then. */
  busy?: () => boolean;
}

/** Saves the screens of a skiffd's panes. */
export class ScreenSaver {
  readonly #options: ScreenSaverOptions;
  readonly #entries = new Map<string, Entry>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  /** No round starts before this time (ms since the epoch): the last round's cost is paid off. */
  #notBefore = 0;
  #stopped = false;
  #failing = false;
  readonly #stats: ScreenSaveStats = { saves: 0, total_ms: 0, max_ms: 0, bytes: 0, failures: 0 };

  /** Saves into `options.store`. */
  constructor(options: ScreenSaverOptions) {
    this.#options = options;
  }

  /**
   * Follows `pane`: its screen is saved after it changes. `history` is what
   * its history file holds already (nothing for a new pane); `scrollback`
   * bounds the lines kept.
   */
  add(pane: Pane, options: { scrollback: number; history?: HistoryCount }): void {
    this.#entries.set(pane.id, {
      pane,
      changedAt: 0,
      history: options.history ?? { bytes: 0, lines: 0 },
      retryAt: 0,
      maxLines: Math.max(1000, options.scrollback * 2),
    });
  }

  /** The pane's screen changed: it is saved soon. */
  changed(pane: Pane): void {
    const entry = this.#entries.get(pane.id);
    if (!entry || this.#stopped) return;
    const now = Date.now();
    entry.changedAt = now;
    entry.dirtySince ??= now;
    this.#arm(this.#due(entry));
  }

  /** Where the pane's saved screen stands: its history file's count, and whether it changed since. */
  standing(pane: Pane): { unsaved: boolean; history: HistoryCount } | undefined {
    const entry = this.#entries.get(pane.id);
    return entry && { unsaved: entry.dirtySince !== undefined, history: { ...entry.history } };
  }

  /** Whether the pane's screen changed since its last save. */
  unsaved(pane: Pane): boolean {
    return this.#entries.get(pane.id)?.dirtySince !== undefined;
  }

  /** Saves the pane's screen now, if it changed since its last save. */
  saveNow(pane: Pane): void {
    const entry = this.#entries.get(pane.id);
    if (entry?.dirtySince !== undefined) this.#save(entry);
  }

  /** Saves every changed screen now, and saves nothing after (skiffd is stopping). */
  saveAllAndStop(): void {
    for (const entry of this.#entries.values()) {
      if (entry.dirtySince !== undefined) this.#save(entry);
    }
    this.stop();
  }

  /** Stops following a pane (it was killed). */
  forget(pane: Pane): void {
    this.#entries.delete(pane.id);
  }

  /** Saves nothing more. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** What saving has cost so far. */
  get stats(): ScreenSaveStats {
    return { ...this.#stats };
  }

  #due(entry: Entry): number {
    const due = Math.min(entry.changedAt + QUIET_MS, entry.dirtySince! + MAX_DELAY_MS);
    return Math.max(due, entry.retryAt);
  }

  #arm(wanted: number): void {
    const at = Math.max(wanted, this.#notBefore);
    if (this.#stopped || at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.#round();
    }, Math.max(0, at - Date.now()));
  }

  /** Saves the panes that are due, oldest first, until the round's budget is spent. */
  #round(): void {
    const now = Date.now();
    const waiting = [...this.#entries.values()].filter((e) => e.dirtySince !== undefined);
    const due = waiting.filter((e) => this.#due(e) <= now)
      .sort((a, b) => a.dirtySince! - b.dirtySince!);
    const started = performance.now();
    let left = due.length;
    for (const entry of due) {
      if (performance.now() - started >= BUDGET_MS) break;
      this.#save(entry);
      left--;
    }
    // The next round waits until this one's cost is the share of the time between them.
    const spent = performance.now() - started;
    const share = this.#options.busy?.() === false ? QUIET_SHARE : MAX_SHARE;
    this.#notBefore = Date.now() + spent * (1 / share - 1);
    if (left > 0) {
      this.#arm(Date.now() + ROUND_GAP_MS);
      return;
    }
    let next = Infinity;
    for (const entry of waiting) {
      if (entry.dirtySince !== undefined) next = Math.min(next, this.#due(entry));
    }
    if (next !== Infinity) this.#arm(next);
  }

  #save(entry: Entry): void {
    const { pane } = entry;
    // A screen still to be built (a restore's) holds what its files hold: saving would build it.
    if (pane.deferred) {
      entry.dirtySince = undefined;
      return;
    }
    const started = performance.now();
    entry.dirtySince = undefined;
    const screen = pane.screen;
    const tooLong = entry.history.lines > entry.maxLines ||
      entry.history.bytes > MAX_HISTORY_BYTES;
    const take = screen.takeHistory({
      startOver: tooLong,
      maxLines: MAX_TAKE_LINES,
      overrunLines: FLOOD_TAKE_LINES,
    });
    entry.retryAt = 0;
    try {
      const saved = this.#options.store.save(
        pane.id,
        {
          cols: screen.cols,
          rows: screen.rows,
          title: screen.title,
          viewport: screen.viewportState(),
        },
        take,
        entry.history,
      );
      entry.history = saved.history;
      this.#stats.bytes += saved.bytes;
      if (this.#failing) {
        this.#failing = false;
        this.#options.log("screens are saved again");
      }
    } catch (error) {
      // The lines taken did not reach the file: the next save writes the history whole.
      screen.historyLost();
      entry.dirtySince ??= Date.now();
      entry.retryAt = Date.now() + MAX_DELAY_MS;
      this.#stats.failures++;
      if (!this.#failing) {
        this.#failing = true;
        this.#options.log(
          `cannot save pane ${pane.id}'s screen (${
            (error as Error)?.message ?? error
          }); trying again with its next change`,
        );
      }
    }
    const took = performance.now() - started;
    this.#stats.saves++;
    this.#stats.total_ms += took;
    this.#stats.max_ms = Math.max(this.#stats.max_ms, took);
  }
}
