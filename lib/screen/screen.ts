/**
 * A pane's screen: awake, a headless xterm that parses everything the pane
 * prints (see `live_screen.ts`); asleep, a few KB that hold its whole state.
 *
 * An idle xterm costs a few hundred KB, and 1.5 KB more for each line of
 * history it keeps (a cell is 12 bytes, whatever it holds). Most panes sit
 * quiet most of the time, so skiffd puts the screen of a quiet pane to
 * sleep ({@linkcode Screen.sleep}): the state it saves for an upgrade, as
 * UTF-8, plus the view agent rules read and the few flags listings ask for.
 * Anything else (output, a capture, a redraw, a resize, a save) wakes it
 * first, from that state, so nobody can tell it slept: the history, the
 * modes, the cursor and the title all come back as they were.
 *
 * @module
 */

import type { ScreenView } from "./view.ts";
import type { HistoryTake } from "./history_tap.ts";
import type { CaptureOptions } from "./screen_lines.ts";
import { HistoryAside, type HistoryAsideText } from "./history_aside.ts";
import { type LazyPrelude, unbornAsleep } from "./unborn_screen.ts";
import type { SavedScreen, ScreenState } from "./screen_state.ts";
import type { ScreenSnapshot } from "../protocol/panes.ts";
import { LiveScreen, type ScreenOptions } from "./live_screen.ts";
import {
  type AsleepScreen,
  asleepVt,
  type BytePacker,
  type SleepSummary,
} from "./asleep_screen.ts";

export type { CaptureOptions } from "./screen_lines.ts";
export type { SavedScreen } from "./screen_state.ts";
export type { ScreenOptions } from "./live_screen.ts";
export type { BytePacker, SleepSummary } from "./asleep_screen.ts";
export type { HistoryAsideText } from "./history_aside.ts";
export { type LazyPrelude, newlineCount } from "./unborn_screen.ts";

const encoder = new TextEncoder();

/** One pane's terminal model. */
export class Screen {
  readonly #options: ScreenOptions;
  #live: LiveScreen | undefined;
  #asleep: AsleepScreen | undefined;
  #onTitle: ((title: string) => void) | undefined;
  #onBell: (() => void) | undefined;
  #onWake: (() => void) | undefined;
  /** Older history lines not in the emulator yet (see `history_aside.ts`). */
  #aside: HistoryAside | undefined;
  /** When the screen was last written or read (ms, `performance.now()`). */
  #touchedAt = performance.now();
  #wakes = 0;

  /** Makes a blank screen of `cols` × `rows` (asleep as `asleep` when given: see {@linkcode Screen.sleeping}). */
  constructor(cols: number, rows: number, options: ScreenOptions, asleep?: AsleepScreen) {
    this.#options = options;
    if (asleep) this.#asleep = asleep;
    else this.#live = new LiveScreen(cols, rows, options);
  }

  /**
   * A screen that starts asleep in `state`, with what it kept beside it
   * (`summary`, from {@linkcode Screen.sleepSummary}): an upgrade hands a
   * sleeping screen over so, and nothing is parsed until it is used.
   */
  static sleeping(
    state: ScreenState,
    summary: SleepSummary,
    options: ScreenOptions & { packer?: BytePacker; packedVt?: Uint8Array },
  ): Screen {
    const { vt, ...rest } = state;
    const { packer, packedVt, ...screenOptions } = options;
    // Escape sequences that come packed already (an upgrade's) are kept as they came.
    const bytes = packedVt ?? encoder.encode(vt);
    return new Screen(state.cols, state.rows, screenOptions, {
      ...summary,
      state: rest,
      vt: packedVt || !packer ? bytes : packer.pack(bytes),
      packer,
    });
  }

  /**
   * A sleeping screen's state with its escape sequences as it keeps them
   * (packed by `packer`), to hand it over without unpacking; `undefined`
   * while it is awake.
   */
  get packedState():
    | { state: Omit<ScreenState, "vt">; vt: Uint8Array; packer?: BytePacker }
    | undefined {
    const asleep = this.#asleep;
    return asleep && { state: asleep.state, vt: asleep.vt, packer: asleep.packer };
  }

  /** What this screen keeps beside its state while it sleeps; `undefined` while it is awake. */
  get sleepSummary(): SleepSummary | undefined {
    if (!this.#asleep) return undefined;
    const { state: _state, vt: _vt, packer: _packer, ...summary } = this.#asleep;
    return summary;
  }

  /** The awake screen with its whole history, woken first when it sleeps; counts as a use. */
  get #screen(): LiveScreen {
    if (this.#aside) this.#mergeAside();
    return this.#awake;
  }

  /**
   * The awake screen, woken first when it sleeps, with history held aside
   * left aside: for what reads or writes no more than the visible screen.
   * Counts as a use.
   */
  get #awake(): LiveScreen {
    this.#touchedAt = performance.now();
    if (this.#live) return this.#live;
    const live = LiveScreen.wake(this.#asleep!, this.#options);
    if (this.#onTitle) live.onTitle(this.#onTitle);
    if (this.#onBell) live.onBell(this.#onBell);
    this.#live = live;
    this.#asleep = undefined;
    this.#wakes++;
    this.#onWake?.();
    return live;
  }

  /**
   * A screen to be built later: `prelude` (escape sequences for a blank
   * screen, such as a restored pane's old history and marker) is drawn when
   * the screen is first used, and everything above the cursor then reads as
   * left by an earlier process (see {@linkcode markOldAbove}). Until then it
   * sleeps with a blank view, as a screen whose rows are all old reads. A
   * {@linkcode LazyPrelude} is not even written until then.
   */
  static unborn(
    cols: number,
    rows: number,
    prelude: string | LazyPrelude,
    options: ScreenOptions,
  ): Screen {
    return new Screen(cols, rows, options, unbornAsleep(cols, rows, prelude));
  }

  /**
   * A screen rebuilt from `state` (as {@linkcode restoreState} does) with
   * `aside`, older lines of its history, held apart until something reads
   * them (see `history_aside.ts`): rebuilding a long history takes its time,
   * and a busy pane's output waits for it.
   */
  static withHistoryAside(
    state: ScreenState,
    aside: HistoryAsideText,
    options: ScreenOptions,
  ): Screen {
    const screen = new Screen(state.cols, state.rows, options);
    screen.restoreState(state);
    if (aside.lines > 0) screen.#aside = new HistoryAside(aside, screen.#live!.historyResets);
    return screen;
  }

  /** How many lines of history are held aside, not yet in the emulator. */
  get historyAside(): number {
    return this.#aside?.lines ?? 0;
  }

  /** Puts the lines held aside under the emulator's state, in a new emulator. */
  #mergeAside(): void {
    const aside = this.#aside!;
    this.#aside = undefined;
    const small = this.#live!;
    const merged = LiveScreen.under(aside, small, this.#options);
    // Output that stopped in the middle of a sequence goes on from there.
    const unfinished = aside.unfinished();
    if (unfinished.length > 0) merged.writeSync(unfinished);
    if (this.#onTitle) merged.onTitle(this.#onTitle);
    if (this.#onBell) merged.onBell(this.#onBell);
    small.dispose();
    this.#live = merged;
  }

  /**
   * A state as {@linkcode saveState} gives it, with the older history lines
   * apart when it has more than `keep` (see {@linkcode withHistoryAside}).
   */
  splitState(keep: number): { state: ScreenState; aside?: HistoryAsideText } {
    const split = this.#live && !this.#aside ? this.#live.splitState(keep) : undefined;
    return split ?? { state: this.saveState() };
  }

  /** Calls `handler` each time the screen wakes (or is first built), before it is used. */
  onWake(handler: () => void): void {
    this.#onWake = handler;
  }

  /** Wakes the screen now, if it sleeps. */
  wake(): void {
    void this.#screen;
  }

  /**
   * Puts the screen to sleep: its xterm is freed, and the next use wakes it
   * as it was; `packer` keeps its state smaller meanwhile. Returns false
   * when it cannot sleep now (asleep already, or its output stopped in the
   * middle of an escape sequence).
   */
  sleep(packer?: BytePacker): boolean {
    if (this.#aside) {
      // Merged first, and only when the state can be saved right after.
      if (!this.#live!.atRest) return false;
      this.#mergeAside();
    }
    const asleep = this.#live?.asleep(packer);
    if (!asleep) return false;
    this.#live!.dispose();
    this.#live = undefined;
    this.#asleep = asleep;
    return true;
  }

  /** Whether the screen sleeps. */
  get asleep(): boolean {
    return this.#live === undefined;
  }

  /** How many times the screen woke from its sleep. */
  get wakes(): number {
    return this.#wakes;
  }

  /** Milliseconds since the screen was last written or read (a view or a listing does not count). */
  get idleMs(): number {
    return performance.now() - this.#touchedAt;
  }

  /** Parses program output; `done` runs once these bytes are on the screen. */
  write(data: Uint8Array, done: () => void): void {
    // History held aside is merged first: this write's bytes are parsed later.
    this.#screen.write(data, done);
  }

  /**
   * Parses program output now, before returning. Faster than {@linkcode write}
   * (no timer per chunk), and the caller's event loop cannot take more output
   * meanwhile, which is flow control for free.
   */
  writeSync(data: Uint8Array): void {
    const live = this.#awake;
    live.writeSync(data);
    const aside = this.#aside;
    if (!aside) return;
    // A history the program cleared or reset goes with the lines aside.
    if (live.historyResets !== aside.resets) this.#aside = undefined;
    else aside.parsed(data, live.atRest);
  }

  /**
   * The whole emulator state (both screens with all their history, cursor,
   * modes, pen, title), to rebuild this screen elsewhere with
   * {@linkcode Screen.restoreState}. Output still queued for
   * {@linkcode Screen.write} is not in it: parse it first. A sleeping screen
   * gives the state it fell asleep with, and sleeps on.
   */
  saveState(): ScreenState {
    if (this.#asleep) return { ...this.#asleep.state, vt: asleepVt(this.#asleep) };
    return this.#screen.saveState();
  }

  /**
   * Rebuilds a state saved by {@linkcode Screen.saveState} on this screen,
   * which must be new (nothing written yet) and of the same size. No query is
   * answered and no title or bell is told while it is rebuilt.
   */
  restoreState(state: ScreenState): void {
    this.#screen.restoreState(state);
  }

  /** Gives back memory an idle screen does not need (the parser's decode buffer). */
  compact(): void {
    this.#live?.compact();
  }

  /** Changes the size; the screen reflows. */
  resize(cols: number, rows: number): void {
    this.#screen.resize(cols, rows);
  }

  /** Columns. */
  get cols(): number {
    return this.#live?.cols ?? this.#asleep!.state.cols;
  }

  /** Rows. */
  get rows(): number {
    return this.#live?.rows ?? this.#asleep!.state.rows;
  }

  /** Lines of history above the normal screen (asleep: as many as its state holds). */
  get historyLines(): number {
    if (!this.#live) return this.#asleep!.state.history;
    const aside = this.#aside?.lines ?? 0;
    return Math.min(this.#live.historyLines + aside, this.#options.scrollback);
  }

  /** The window title set by OSC 0 or 2. */
  get title(): string {
    return this.#live?.title ?? this.#asleep!.state.title;
  }

  /** How many bells rang since the screen was made. */
  get bells(): number {
    return this.#live?.bells ?? this.#asleep!.bells;
  }

  /** Whether the program enabled bracketed paste (DECSET 2004). */
  get bracketedPaste(): boolean {
    return this.#live?.bracketedPaste ?? this.#asleep!.bracketedPaste;
  }

  /** Whether the program enabled application cursor keys (DECCKM). */
  get applicationCursorKeys(): boolean {
    return this.#live?.applicationCursorKeys ?? this.#asleep!.applicationCursorKeys;
  }

  /** Whether the alternate screen is active. */
  get alternate(): boolean {
    return this.#live?.alternate ?? this.#asleep!.alternate;
  }

  /** Sets the handler for title changes. */
  onTitle(handler: (title: string) => void): void {
    this.#onTitle = handler;
    this.#live?.onTitle(handler);
  }

  /** Sets the handler for the bell. */
  onBell(handler: () => void): void {
    this.#onBell = handler;
    this.#live?.onBell(handler);
  }

  /** Returns the visible screen for agent rules; a sleeping screen's view is the one it slept with. */
  view(): ScreenView {
    return this.#live?.view() ?? this.#asleep!.view;
  }

  /**
   * Marks everything up to the line above the cursor as left by an earlier
   * process (the history of a restored pane): {@linkcode view}, which agent
   * rules read, shows those rows blank while they are on the screen, so an
   * old agent's busy line or input box never counts as the new program's.
   */
  markOldAbove(): void {
    this.#screen.markOldAbove();
  }

  /** The last OSC 9;4 progress state, if the program sent one. */
  get progress(): number | undefined {
    return this.#live ? this.#live.progress : this.#asleep!.state.progress;
  }

  /** Returns the visible rows as plain text with trailing blanks removed. */
  visibleLines(): string[] {
    return this.#awake.visibleLines();
  }

  /** Returns the screen's lines, with up to `scrollback` lines of history first. */
  lines(options: CaptureOptions = {}): string[] {
    return this.#screen.lines(options);
  }

  /**
   * The visible rows with SGR colours and styles, cut to the first `columns`
   * columns, for a box `rows` high (see `LiveScreen.cropped`): a preview.
   */
  cropped(columns: number, rows: number): string[] {
    return this.#awake.cropped(columns, rows);
  }

  /** Returns the screen as text: its lines, trailing empty lines dropped. */
  capture(options: CaptureOptions = {}): string {
    return this.#screen.capture(options);
  }

  /** Returns the screen's state and lines. */
  snapshot(options: CaptureOptions = {}): ScreenSnapshot {
    return this.#screen.snapshot(options);
  }

  /**
   * Returns escape sequences that redraw this screen, modes included, on a
   * blank terminal; with `scrollback`, that many lines of history first.
   */
  serialize(options: { scrollback?: number } = {}): string {
    return this.#screen.serialize(options);
  }

  /**
   * Escape sequences that draw the screen the program shows now over a whole
   * terminal, with the program's modes, and never switch that terminal's own
   * screen (see `LiveScreen.redraw`).
   */
  redraw(options: { scrollback?: number } = {}): string {
    return this.#screen.redraw(options);
  }

  /**
   * The history lines that scrolled up since the last call, for a copy kept
   * elsewhere that grows by what was printed (see `LiveScreen.takeHistory`).
   */
  takeHistory(
    options: { startOver?: boolean; maxLines?: number; overrunLines?: number } = {},
  ): HistoryTake {
    return this.#screen.takeHistory(options);
  }

  /** The lines of the last take were lost: the next {@linkcode takeHistory} brings every line. */
  historyLost(): void {
    this.#screen.historyLost();
  }

  /**
   * The visible screen with the program's modes, the cursor and the
   * alternate screen when it shows, as escape sequences for a blank terminal
   * of this size (see {@linkcode SavedScreen.viewport}).
   */
  viewportState(): string {
    return this.#screen.viewportState();
  }

  /** The whole screen as saved: history, visible screen, modes and title. */
  state(): SavedScreen {
    return this.#screen.state();
  }

  /**
   * Draws a saved screen on this one, which must be blank and of the saved
   * size: the history goes into the scrollback, and the visible screen,
   * modes and title come back as they were.
   */
  restore(saved: SavedScreen): void {
    this.#screen.restore(saved);
  }

  /**
   * Writes history lines (as {@linkcode SavedScreen.history} holds them)
   * into the scrollback of this blank screen, and leaves the visible screen
   * blank with the cursor at the top left.
   */
  writeHistory(history: string): void {
    this.#screen.writeHistory(history);
  }

  /** Frees the terminal. What it was sized and titled stays readable. */
  dispose(): void {
    this.#aside = undefined;
    this.#live?.dispose();
    if (this.#asleep) {
      this.#asleep.vt = new Uint8Array(0);
      this.#asleep.packer = undefined;
    }
  }
}
