/**
 * A screen held in a headless xterm: it parses everything the pane prints,
 * answers the terminal queries programs send at start-up, and serves
 * captures and redraws. `Screen` (screen.ts) owns one while the screen is
 * awake, and lets it go while the pane is quiet.
 *
 * @module
 */

import xterm from "@xterm/headless";
import type { IBufferCell, Terminal } from "@xterm/headless";
import serializeAddon from "@xterm/addon-serialize";
import type { SerializeAddon } from "@xterm/addon-serialize";
import type { ScreenView } from "./view.ts";
import { ProgramReports } from "./reports.ts";
import { type HistoryTake, HistoryTap } from "./history_tap.ts";
import { answerQueries } from "./queries.ts";
import { alternatePart } from "./alt_switch.ts";
import {
  type CaptureOptions,
  croppedLines,
  screenLines,
  screenSnapshot,
  viewRows,
  visibleLines,
} from "./screen_lines.ts";
import {
  pushedUp,
  type SavedScreen,
  saveScreenState,
  type ScreenState,
  splitScreenState,
  stateUnder,
} from "./screen_state.ts";
import type { HistoryAsideText } from "./history_aside.ts";
import { type AsleepScreen, asleepVt, type BytePacker, compactView } from "./asleep_screen.ts";
import { OldRows } from "./old_rows.ts";
import type { ScreenSnapshot } from "../protocol/panes.ts";
import {
  compactHandlerLists,
  parserAtRest,
  ScrollbackRoom,
  shrinkParseBuffer,
} from "./xterm_memory.ts";
import { recycleLinesWithoutGarbage } from "./line_recycling.ts";

/** Options for {@linkcode LiveScreen}. */
export interface ScreenOptions {
  /** Lines kept above the visible rows. */
  scrollback: number;
  /** Receives the answers to terminal queries, to be written back to the program. */
  respond: (answer: string) => void;
}

const encoder = new TextEncoder();

/** One pane's terminal model, in xterm. */
export class LiveScreen {
  readonly #term: Terminal;
  readonly #serializer: SerializeAddon;
  readonly #scratch: IBufferCell;
  readonly #reports: ProgramReports;
  /** The scrollback's room, grown as output comes. */
  readonly #room: ScrollbackRoom;
  /** The state last saved, while nothing changed the screen since. */
  #saved: ScreenState | undefined;
  /** Follows the history for incremental saves, once asked for. */
  #tap: HistoryTap | undefined;
  /** What an earlier process left (see {@linkcode markOldAbove}). */
  readonly #old: OldRows;
  /** How many times the program cleared or reset the history. */
  #historyResets = 0;

  /** Makes a blank screen of `cols` × `rows`. */
  constructor(cols: number, rows: number, options: ScreenOptions) {
    this.#room = new ScrollbackRoom(options.scrollback);
    this.#term = new xterm.Terminal({
      cols,
      rows,
      scrollback: this.#room.first,
      allowProposedApi: true,
      windowOptions: { getWinSizeChars: true },
      // writeSync warns once that it is "unreliable": that is about async parser
      // handlers, and this screen has none.
      logLevel: "error",
    });
    this.#room.follow(this.#term);
    this.#serializer = new serializeAddon.SerializeAddon();
    this.#term.loadAddon(this.#serializer);
    this.#scratch = this.#term.buffer.active.getNullCell();
    this.#term.onData(options.respond);
    this.#reports = new ProgramReports(this.#term);
    this.#old = new OldRows(this.#term);
    answerQueries(this.#term, options.respond);
    this.#followClears();
    compactHandlerLists(this.#term);
    recycleLinesWithoutGarbage(this.#term);
  }

  /** Follows clears and resets, which end what the history and the old rows held. */
  #followClears(): void {
    const parser = this.#term.parser;
    // A cleared or reset history must be saved again as a whole.
    parser.registerCsiHandler({ final: "J" }, (params) => {
      if (params[0] === 3) {
        this.#tap?.startOver();
        this.#historyResets++;
      }
      // A cleared screen holds nothing an earlier process left.
      if (params[0] === 2 || params[0] === 3) this.#old.forget();
      return false;
    });
    parser.registerEscHandler({ final: "c" }, () => {
      this.#tap?.startOver();
      this.#historyResets++;
      this.#old.forget();
      return false;
    });
  }

  /** Parses program output; `done` runs once these bytes are on the screen. */
  write(data: Uint8Array, done: () => void): void {
    // Room for every byte still queued, since xterm parses them later.
    this.#room.queued += data.length;
    this.#room.grow(this.#room.queued);
    this.#term.write(data, () => {
      this.#room.queued -= data.length;
      this.#saved = undefined;
      done();
    });
  }

  /**
   * Parses program output now, before returning. Faster than {@linkcode write}
   * (no timer per chunk), and the caller's event loop cannot take more output
   * meanwhile, which is flow control for free.
   */
  writeSync(data: Uint8Array): void {
    this.#saved = undefined;
    this.#room.grow(this.#room.queued + data.length);
    this.#writeNow(data);
  }

  /** Parses `data` before returning (xterm's public write always queues). */
  #writeNow(data: Uint8Array | string): void {
    (this.#term as unknown as { _core: { writeSync(data: Uint8Array | string): void } })._core
      .writeSync(data);
  }

  /**
   * The whole emulator state (both screens with all their history, cursor,
   * modes, pen, title), to rebuild this screen elsewhere with
   * {@linkcode LiveScreen.restoreState}. Output still queued for
   * {@linkcode Screen.write} is not in it: parse it first.
   */
  saveState(): ScreenState {
    // A screen nothing was written to since the last save saves the same (an
    // upgrade saves every screen twice: for the new program's check, and at the handoff).
    this.#saved ??= saveScreenState(this.#term, this.#serializer, this.#reports);
    return this.#saved;
  }

  /**
   * Rebuilds a state saved by {@linkcode LiveScreen.saveState} on this screen,
   * which must be new (nothing written yet) and of the same size. No query is
   * answered and no title or bell is told while it is rebuilt.
   */
  restoreState(state: ScreenState): void {
    if (state.cols !== this.cols || state.rows !== this.rows) {
      throw new Error(
        `a saved screen of ${state.cols}x${state.rows} cannot be rebuilt on ${this.cols}x${this.rows}`,
      );
    }
    this.#reports.rebuild(state, () => {
      this.#room.grow(state.history + state.rows);
      this.#writeNow(state.vt);
    });
    this.#saved = undefined;
  }

  /**
   * What this screen is asleep (see {@linkcode AsleepScreen}), to be woken
   * by {@linkcode LiveScreen.wake}; `undefined` while its output stopped in
   * the middle of an escape sequence or a character, which a saved state
   * cannot hold. Output queued for {@linkcode write} must be parsed first.
   */
  asleep(packer?: BytePacker): AsleepScreen | undefined {
    if (this.#room.queued > 0 || !parserAtRest(this.#term)) return undefined;
    const { vt, ...state } = this.saveState();
    const bytes = encoder.encode(vt);
    return {
      state,
      vt: packer ? packer.pack(bytes) : bytes,
      packer,
      view: compactView(this.view()),
      bells: this.#reports.bells,
      bracketedPaste: this.bracketedPaste,
      applicationCursorKeys: this.applicationCursorKeys,
      alternate: this.alternate,
      tap: this.#tap?.position,
      oldUntil: this.#old.until,
    };
  }

  /** The screen `asleep` was, awake again: the same state, history and counts. */
  static wake(asleep: AsleepScreen, options: ScreenOptions): LiveScreen {
    const state: ScreenState = { ...asleep.state, vt: asleepVt(asleep) };
    const screen = new LiveScreen(state.cols, state.rows, options);
    screen.restoreState(state);
    screen.#reports.bells = asleep.bells;
    if (asleep.tap) {
      screen.#tap = new HistoryTap(screen.#term, screen.#serializer);
      screen.#tap.resume(asleep.tap);
    }
    if (asleep.oldUntil !== undefined) screen.#old.markUpTo(asleep.oldUntil);
    if (asleep.markOld) screen.markOldAbove();
    // Nothing changed since that state was saved: an upgrade need not save it again.
    screen.#saved = state;
    return screen;
  }

  /**
   * The state as {@linkcode saveState} gives it, with the older lines of the
   * history apart (see `splitScreenState`); undefined when it cannot be split.
   */
  splitState(keep: number): { state: ScreenState; aside: HistoryAsideText } | undefined {
    return splitScreenState(this.#term, this.#serializer, this.#reports, keep);
  }

  /**
   * A new screen that holds `aside` (older history lines) above everything
   * `screen` holds: its state, bells and the rows an earlier process left.
   * `screen` itself is left as it was.
   */
  static under(aside: HistoryAsideText, screen: LiveScreen, options: ScreenOptions): LiveScreen {
    const merged = new LiveScreen(screen.cols, screen.rows, options);
    merged.restoreState(stateUnder(aside, screen.saveState()));
    merged.#reports.bells = screen.#reports.bells;
    const old = screen.#old.until;
    if (old !== undefined) merged.#old.markUpTo(old + merged.historyLines - screen.historyLines);
    return merged;
  }

  /** How many times the program cleared or reset the history (`CSI 3 J`, `ESC c`). */
  get historyResets(): number {
    return this.#historyResets;
  }

  /** Whether the parser is between sequences and characters, with nothing queued. */
  get atRest(): boolean {
    return this.#room.queued === 0 && parserAtRest(this.#term);
  }

  /** Gives back memory an idle screen does not need (the parser's decode buffer). */
  compact(): void {
    shrinkParseBuffer(this.#term);
  }

  /** Changes the size; the screen reflows. */
  resize(cols: number, rows: number): void {
    this.#saved = undefined;
    // A reflow may add many lines at once: give the scrollback its full room first.
    this.#room.growAll();
    this.#term.resize(cols, rows);
    // The history reflowed.
    this.#tap?.startOver();
  }

  /** Columns. */
  get cols(): number {
    return this.#term.cols;
  }

  /** Lines of history above the normal screen. */
  get historyLines(): number {
    return Math.max(0, this.#term.buffer.normal.length - this.#term.rows);
  }

  /** Rows. */
  get rows(): number {
    return this.#term.rows;
  }

  /** The window title set by OSC 0 or 2. */
  get title(): string {
    return this.#reports.title;
  }

  /** How many bells rang since the screen was made. */
  get bells(): number {
    return this.#reports.bells;
  }

  /** Whether the program enabled bracketed paste (DECSET 2004). */
  get bracketedPaste(): boolean {
    return this.#term.modes.bracketedPasteMode;
  }

  /** Whether the program enabled application cursor keys (DECCKM). */
  get applicationCursorKeys(): boolean {
    return this.#term.modes.applicationCursorKeysMode;
  }

  /** Whether the alternate screen is active. */
  get alternate(): boolean {
    return this.#term.buffer.active.type === "alternate";
  }

  /** Sets the handler for title changes. */
  onTitle(handler: (title: string) => void): void {
    this.#reports.onTitle = handler;
  }

  /** Sets the handler for the bell. */
  onBell(handler: () => void): void {
    this.#reports.onBell = handler;
  }

  /** Returns the visible screen for agent rules. */
  view(): ScreenView {
    const buffer = this.#term.buffer.active;
    return {
      // Rows an earlier process left are not the program's own: they read as blank.
      rows: viewRows(this.#term, this.#scratch, this.#old.lastVisible()),
      title: this.#reports.title,
      progress: this.#reports.progress,
      status: this.#reports.status,
      bracketedPaste: this.bracketedPaste,
      cursorY: buffer.cursorY,
    };
  }

  /**
   * Marks everything up to the line above the cursor as left by an earlier
   * process (the history of a restored pane): {@linkcode view}, which agent
   * rules read, shows those rows blank while they are on the screen, so an
   * old agent's busy line or input box never counts as the new program's.
   */
  markOldAbove(): void {
    this.#old.markAbove();
  }

  /** The last OSC 9;4 progress state, if the program sent one. */
  get progress(): number | undefined {
    return this.#reports.progress;
  }

  /** Returns the visible rows as plain text with trailing blanks removed. */
  visibleLines(): string[] {
    return visibleLines(this.#term);
  }

  /** Returns the screen's lines, with up to `scrollback` lines of history first. */
  lines(options: CaptureOptions = {}): string[] {
    return screenLines(this.#term, this.#scratch, options);
  }

  /**
   * The visible rows with SGR colours and styles, cut to the first `columns`
   * columns, for a box `rows` high: the rows in use (down to the last one with
   * text or the cursor); when they are more than the box holds, runs of blank
   * rows shrink to one and the last `rows` are kept, so that a small box shows
   * what a program wrote at the top and where it writes now (an agent's
   * transcript above its input box): a preview.
   */
  cropped(columns: number, rows: number): string[] {
    return croppedLines(this.#term, this.#scratch, { columns, rows });
  }

  /** Returns the screen as text: its lines, trailing empty lines dropped. */
  capture(options: CaptureOptions = {}): string {
    const lines = this.lines(options);
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.join("\n");
  }

  /** Returns the screen's state and lines. */
  snapshot(options: CaptureOptions = {}): ScreenSnapshot {
    return screenSnapshot(this.#term, this.#scratch, { ...options, title: this.#reports.title });
  }

  /**
   * Returns escape sequences that redraw this screen, modes included, on a
   * blank terminal; with `scrollback`, that many lines of history first.
   */
  serialize(options: { scrollback?: number } = {}): string {
    return this.#serializer.serialize({ scrollback: options.scrollback ?? 0 });
  }

  /**
   * Escape sequences that draw the screen the program shows now (the normal
   * or the alternate one) over a whole terminal, with the program's modes,
   * and never switch that terminal's own screen: an attached terminal shows
   * the pane's screen as it is at every moment. With `scrollback`, that many
   * lines of the normal screen's history come first (the alternate screen has none).
   */
  redraw(options: { scrollback?: number } = {}): string {
    const full = this.#serializer.serialize({ scrollback: options.scrollback ?? 0 });
    const part = alternatePart(full);
    const body = this.alternate && part ? full.slice(part.after) : full;
    return "\x1b[H\x1b[2J\x1b[3J" + body;
  }

  /**
   * The history lines that scrolled up since the last call (all of them the
   * first time, with `startOver`, and after the history was cleared, reset
   * or reflowed), for a copy kept elsewhere that grows by what was printed;
   * at most `maxLines`, the newest, and at most `overrunLines` when lines
   * had already scrolled away untaken (a flood).
   */
  takeHistory(
    options: { startOver?: boolean; maxLines?: number; overrunLines?: number } = {},
  ): HistoryTake {
    this.#tap ??= new HistoryTap(this.#term, this.#serializer);
    if (options.startOver) this.#tap.startOver();
    return this.#tap.take({ lines: options.maxLines, overrun: options.overrunLines });
  }

  /** The lines of the last take were lost: the next {@linkcode takeHistory} brings every line. */
  historyLost(): void {
    this.#tap?.startOver();
  }

  /**
   * The visible screen with the program's modes, the cursor and the
   * alternate screen when it shows, as escape sequences for a blank terminal
   * of this size (see {@linkcode SavedScreen.viewport}).
   */
  viewportState(): string {
    return this.#serializer.serialize({ scrollback: 0 });
  }

  /** The whole screen as saved: history, visible screen, modes and title. */
  state(): SavedScreen {
    return {
      cols: this.cols,
      rows: this.rows,
      title: this.#reports.title,
      history: (this.#tap ?? new HistoryTap(this.#term, this.#serializer)).all(),
      viewport: this.viewportState(),
    };
  }

  /**
   * Draws a saved screen on this one, which must be blank and of the saved
   * size: the history goes into the scrollback, and the visible screen,
   * modes and title come back as they were.
   */
  restore(saved: SavedScreen): void {
    this.writeHistory(saved.history);
    this.writeSync(encoder.encode(saved.viewport));
    if (saved.title) this.writeSync(encoder.encode(`\x1b]2;${saved.title}\x07`));
  }

  /**
   * Writes history lines (as {@linkcode SavedScreen.history} holds them)
   * into the scrollback of this blank screen, and leaves the visible screen
   * blank with the cursor at the top left.
   */
  writeHistory(history: string): void {
    if (history === "") return;
    this.writeSync(encoder.encode(history));
    // The lines still on the screen go up into the scrollback: one line feed at the bottom each.
    const onScreen = this.#term.buffer.normal.cursorY;
    this.writeSync(encoder.encode(pushedUp(this.rows, onScreen)));
  }

  /** Frees the terminal. */
  dispose(): void {
    this.#tap?.dispose();
    this.#term.dispose();
  }
}
