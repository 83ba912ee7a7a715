/**
 * A screen's whole emulator state as escape sequences, so that another
 * process (a new skiffd after `skiff daemon upgrade`, or a later run) can
 * rebuild it on a blank terminal of the same size: both screens (normal and
 * alternate) with all their scrollback, the cursor, and the state a program
 * counts on without redrawing: its modes (bracketed paste, application
 * cursor keys and keypad, mouse tracking and its encoding, focus reports,
 * insert, origin, wrap), the scroll region, the cursor's look and whether it
 * shows, the saved cursor, the pen (the colours and styles the next
 * character gets), character sets, tab stops, and a pending wrap at the end
 * of a row.
 *
 * The state is written in the terminal's own language (escape sequences),
 * not in the emulator's memory layout, so a newer Skiff with another xterm
 * reads it as well. Reading it needs the emulator's internals; they are
 * read in one place, here, and a missing one leaves its part out.
 *
 * @module
 */

import type { IBufferCell, Terminal } from "@xterm/headless";
import type { SerializeAddon } from "@xterm/addon-serialize";
import { sgrOf } from "./sgr_line.ts";
import { alternatePart } from "./alt_switch.ts";
import { historyText } from "./history_text.ts";
import type { AgentStatusReport } from "./view.ts";
import type { HistoryAsideText } from "./history_aside.ts";

/** The format of {@linkcode ScreenState}; a reader refuses one it does not know. */
export const SCREEN_STATE_VERSION = 1;

/** A screen's saved state (see the module's description). */
export interface ScreenState {
  /** The format ({@linkcode SCREEN_STATE_VERSION}). */
  version: number;
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** Lines of history on the normal screen. */
  history: number;
  /** Escape sequences that rebuild the state on a blank terminal of this size. */
  vt: string;
  /** The window title. */
  title: string;
  /** The last OSC 9;4 progress state, if the program sent one. */
  progress?: number;
  /** The last OSC 7501 status report of an agent, if one came. */
  status?: AgentStatusReport;
}

/**
 * A screen as saved: everything that redraws it on a blank terminal of the
 * same size. `Screen.state` makes one and
 * `Screen.restore` draws it again.
 */
export interface SavedScreen {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** The window title. */
  title: string;
  /**
   * The history lines (the normal buffer's scrollback) as escape sequences
   * with colours and styles, each ending in `\r\n`; empty when none.
   */
  history: string;
  /**
   * The visible screen with the program's modes, the cursor and, while it
   * shows, the alternate screen, as escape sequences for a blank terminal.
   */
  viewport: string;
}

/** The attribute getters the pen has, the same as a cell's. */
type Pen = Pick<
  IBufferCell,
  | "isBold"
  | "isDim"
  | "isItalic"
  | "isUnderline"
  | "isBlink"
  | "isInverse"
  | "isInvisible"
  | "isStrikethrough"
  | "isFgRGB"
  | "isBgRGB"
  | "isFgPalette"
  | "isBgPalette"
  | "getFgColor"
  | "getBgColor"
>;

/** The parts of xterm's core this module reads (all optional: a newer xterm may move them). */
interface Core {
  coreService?: {
    isCursorHidden?: boolean;
    decPrivateModes?: { origin?: boolean; cursorStyle?: string; cursorBlink?: boolean };
  };
  coreMouseService?: { activeEncoding?: string };
  _inputHandler?: { _curAttrData?: Pen & { fg: number; bg: number } };
  _charsetService?: { _charsets?: unknown[]; glevel?: number; charset?: unknown };
  _bufferService?: { buffers?: { normal?: CoreBuffer } };
  buffer?: CoreBuffer;
}

/** A buffer as this module reads it. */
interface CoreBuffer {
  x: number;
  y: number;
  ybase: number;
  scrollTop: number;
  scrollBottom: number;
  savedX?: number;
  savedY?: number;
  savedCurAttrData?: Pen & { fg: number; bg: number };
  savedCharset?: unknown;
  tabs?: Record<number, boolean>;
}

function coreOf(term: Terminal): Core {
  return (term as unknown as { _core?: Core })._core ?? {};
}

/** The character set designators a program may pick (G0–G3), by the emulator's table. */
const DESIGNATORS = [
  "0",
  "A",
  "B",
  "4",
  "C",
  "5",
  "R",
  "Q",
  "K",
  "Y",
  "E",
  "6",
  "Z",
  "H",
  "7",
  "=",
];

/** Designator of each charset table, learned from the emulator itself (see {@linkcode designatorOf}). */
let charsetTables: Map<unknown, string> | undefined;

/** The designator (`0`, `A`, …) of a charset table of `term`'s kind; `B` (US ASCII) for none. */
function designatorOf(term: Terminal, table: unknown): string {
  if (table === undefined || table === null) return "B";
  if (!charsetTables) {
    charsetTables = new Map();
    const Kind = term.constructor as new (options: object) => Terminal;
    const probe = new Kind({ cols: 10, rows: 2, allowProposedApi: true, logLevel: "off" });
    const service = coreOf(probe)._charsetService;
    const core = (probe as unknown as { _core: { writeSync(data: string): void } })._core;
    for (const designator of DESIGNATORS) {
      core.writeSync(`\x1b(${designator}`);
      const found = service?._charsets?.[0];
      if (found !== undefined && !charsetTables.has(found)) charsetTables.set(found, designator);
    }
    probe.dispose();
  }
  return charsetTables.get(table) ?? "B";
}

/** The SGR sequence that sets the pen from a reset state. */
function penSequence(pen: Pen | undefined): string {
  if (!pen) return "\x1b[0m";
  const sgr = sgrOf(pen as IBufferCell);
  return sgr === "" ? "\x1b[0m" : `\x1b[0;${sgr}m`;
}

/** Escape sequences for the state the serializer leaves out (see the module's description). */
function trailer(term: Terminal): string {
  const core = coreOf(term);
  const buffer = core.buffer;
  const modes = core.coreService?.decPrivateModes ?? {};
  let out = "";
  // Mouse reports' encoding (the serializer keeps the tracking mode, not the encoding).
  const encoding = core.coreMouseService?.activeEncoding;
  if (encoding === "SGR") out += "\x1b[?1006h";
  else if (encoding === "SGR_PIXELS") out += "\x1b[?1016h";
  if (modes.cursorStyle) {
    const base = { block: 1, underline: 3, bar: 5 }[modes.cursorStyle] ?? 1;
    out += `\x1b[${base + (modes.cursorBlink ? 0 : 1)} q`;
  }
  if (!buffer) return out + (core.coreService?.isCursorHidden ? "\x1b[?25l" : "");
  // Tab stops, when a program set its own.
  const tabs = buffer.tabs ?? {};
  const stops = Object.keys(tabs).map(Number).filter((x) => tabs[x]).sort((a, b) => a - b);
  const standard = stops.length === Math.ceil(term.cols / 8) &&
    stops.every((x, i) => x === i * 8);
  if (!standard && buffer.tabs) {
    out += "\x1b[?6l\x1b[3g";
    for (const x of stops) out += `\x1b[1;${x + 1}H\x1bH`;
  }
  // The saved cursor: where it was, with the pen and charset it had. The scroll
  // region and origin mode come after, since setting them moves the cursor.
  out += "\x1b[?6l\x1b[r";
  if (buffer.savedX !== undefined && buffer.savedY !== undefined) {
    const row = Math.min(Math.max(buffer.savedY - buffer.ybase, 0), term.rows - 1);
    const col = Math.min(buffer.savedX, term.cols - 1);
    out += `\x1b[${row + 1};${col + 1}H${penSequence(buffer.savedCurAttrData)}`;
    out += `\x1b(${designatorOf(term, buffer.savedCharset)}\x0f\x1b7`;
  }
  const full = buffer.scrollTop === 0 && buffer.scrollBottom === term.rows - 1;
  if (!full) out += `\x1b[${buffer.scrollTop + 1};${buffer.scrollBottom + 1}r`;
  if (modes.origin) out += "\x1b[?6h";
  // The cursor, last. A cursor past the last column waits to wrap: write that
  // column's character again, with its own look, to get there the same way.
  const top = modes.origin ? buffer.scrollTop : 0;
  const pending = buffer.x >= term.cols;
  const col = pending ? term.cols - 1 : buffer.x;
  out += `\x1b[${buffer.y - top + 1};${col + 1}H`;
  if (pending) {
    const line = term.buffer.active.getLine(buffer.ybase + buffer.y);
    const cell = line?.getCell(col);
    if (cell && cell.getWidth() === 1) {
      const sgr = sgrOf(cell);
      out += `${sgr === "" ? "\x1b[0m" : `\x1b[0;${sgr}m`}${cell.getChars() || " "}`;
    }
  }
  out += penSequence(core._inputHandler?._curAttrData);
  // Character sets: G0–G3 and which of them is in use.
  const charsets = core._charsetService;
  if (charsets?._charsets) {
    const finals = ["(", ")", "*", "+"];
    for (let g = 0; g < 4; g++) {
      const designator = designatorOf(term, charsets._charsets[g]);
      if (designator !== "B") out += `\x1b${finals[g]}${designator}`;
    }
    const shift = ["\x0f", "\x0e", "\x1bn", "\x1bo"][charsets.glevel ?? 0] ?? "\x0f";
    if (shift !== "\x0f") out += shift;
  }
  if (core.coreService?.isCursorHidden) out += "\x1b[?25l";
  return out;
}

/**
 * The serializer's screens, mended where the alternate screen is in use. It
 * ends the normal screen with the pen of the cursor's cell and switches
 * with `?1049h`, which saves the cursor: here the switch saves the pen and
 * charset the normal screen saved when the program switched (they come back
 * when it leaves), and the alternate screen is drawn from a reset pen.
 */
function screens(term: Terminal, serialized: string): string {
  const part = alternatePart(serialized);
  if (!part) return serialized;
  const normal = coreOf(term)._bufferService?.buffers?.normal;
  const saved = normal
    ? penSequence(normal.savedCurAttrData) + `\x1b(${designatorOf(term, normal.savedCharset)}`
    : "";
  const toAlternate = serialized.slice(part.at, part.after);
  return serialized.slice(0, part.at) + saved + toAlternate + "\x1b[0m" +
    serialized.slice(part.after);
}

/** How many lines of history the normal screen holds. */
function historyLines(term: Terminal): number {
  return Math.max(0, term.buffer.normal.length - term.rows);
}

/**
 * Both screens with all of the normal screen's history: the history as
 * {@linkcode historyText} writes it (fast for plain lines), pushed up into
 * the scrollback, then the visible screens drawn from the top. A first
 * visible row that continues the last history line is written with it, by
 * the serializer in one run, so that the two stay one line.
 */
function bothScreens(term: Terminal, serializer: SerializeAddon, start = 0): string {
  const history = historyLines(term);
  if (history === 0 || !historyEndsLine(term)) {
    return screens(term, serializer.serialize());
  }
  // The history's last lines are on the screen still: a line feed at the bottom for each.
  const onScreen = Math.min(history - start, term.rows - 1);
  return historyText({ term, serializer }, { start, end: history - 1 }) +
    pushedUp(term.rows, onScreen) +
    screens(term, serializer.serialize({ scrollback: 0 }));
}

/** Whether the history's last line ends there (the first visible row does not continue it). */
function historyEndsLine(term: Terminal): boolean {
  return term.buffer.normal.getLine(historyLines(term))?.isWrapped === false;
}

/**
 * Saves `term`'s whole state, using `serializer` (loaded on `term`) for the
 * screens and the modes it knows. `reports` are the title, progress and
 * status as the terminal's owner tracks them.
 */
export function saveScreenState(
  term: Terminal,
  serializer: SerializeAddon,
  reports: Pick<ScreenState, "title" | "progress" | "status">,
): ScreenState {
  return stateFrom(term, serializer, reports, 0);
}

/** The state with the history from line `start` on. */
function stateFrom(
  term: Terminal,
  serializer: SerializeAddon,
  reports: Pick<ScreenState, "title" | "progress" | "status">,
  start: number,
): ScreenState {
  return {
    version: SCREEN_STATE_VERSION,
    cols: term.cols,
    rows: term.rows,
    history: historyLines(term) - start,
    vt: bothScreens(term, serializer, start) + trailer(term),
    title: reports.title,
    ...(reports.progress !== undefined ? { progress: reports.progress } : {}),
    ...(reports.status ? { status: { ...reports.status } } : {}),
  };
}

/**
 * Saves `term`'s state as {@linkcode saveScreenState} does, with the older
 * lines of its history apart: the state holds at least the newest `keep`
 * lines (and never fewer than a screenful), and `aside` the ones above them,
 * written as a blank terminal takes them (see `history_aside.ts`). Undefined
 * when the history is too short to split, or cannot be cut between two lines.
 */
export function splitScreenState(
  term: Terminal,
  serializer: SerializeAddon,
  reports: Pick<ScreenState, "title" | "progress" | "status">,
  keep: number,
): { state: ScreenState; aside: HistoryAsideText } | undefined {
  const history = historyLines(term);
  let cut = history - Math.max(keep, term.rows);
  // A line wrapped over several rows stays whole on one side of the cut.
  while (cut > 0 && term.buffer.normal.getLine(cut)?.isWrapped !== false) cut--;
  // Fewer lines aside than a screenful would come back with blank lines between the parts.
  if (cut < term.rows || !historyEndsLine(term)) return undefined;
  return {
    state: stateFrom(term, serializer, reports, cut),
    aside: { vt: historyText({ term, serializer }, { start: 0, end: cut - 1 }), lines: cut },
  };
}

/**
 * The state of a screen with `aside` above its history: escape sequences
 * that write the lines aside, push them all up into the scrollback, and
 * then draw `state` on the blank screen left.
 */
export function stateUnder(aside: HistoryAsideText, state: ScreenState): ScreenState {
  return {
    ...state,
    history: state.history + aside.lines,
    vt: aside.vt + "\x1b[0m" + pushedUp(state.rows, state.rows - 1) + state.vt,
  };
}

/**
 * Escape sequences that push the `lines` last lines on a screen of `rows`
 * up into the scrollback (a line feed at the bottom for each) and put the
 * cursor at the top left.
 */
export function pushedUp(rows: number, lines: number): string {
  return `\x1b[${rows};1H${"\n".repeat(lines)}\x1b[H`;
}

/** Whether `value` is a {@linkcode ScreenState} this build can restore. */
export function isScreenState(value: unknown): value is ScreenState {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  return s.version === SCREEN_STATE_VERSION && Number.isInteger(s.cols) &&
    Number.isInteger(s.rows) && Number.isInteger(s.history) && typeof s.vt === "string" &&
    typeof s.title === "string";
}
