/**
 * Following a screen's history (the scrollback of its normal buffer) as it
 * grows, so that whoever keeps a copy of it writes only the lines that
 * scrolled up since the last take, not the whole history each time: a
 * take costs what was printed since the one before.
 *
 * A line that has scrolled into the history does not change again, with
 * three exceptions, after which the next take starts over with every line:
 * the program cleared the history (`CSI 3 J`), reset the terminal (`ESC c`),
 * or the screen was resized (the history reflows).
 *
 * The place up to which lines were taken is kept with a marker on the
 * normal buffer, which xterm moves as old lines drop off the top. That
 * reaches into xterm's private core (the normal buffer's `addMarker`), so it
 * checks the fields it touches, against the pinned version (6.0.0); without
 * them every take starts over, which is correct, only dearer.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import type { SerializeAddon } from "@xterm/addon-serialize";
import { historyText } from "./history_text.ts";

/** A marker on a buffer line, as xterm's core keeps it. */
export interface CoreMarker {
  readonly line: number;
  readonly isDisposed: boolean;
  dispose(): void;
}

/** The part of xterm's normal buffer used here. */
export interface CoreBuffer {
  addMarker(y: number): CoreMarker;
}

/** The normal buffer of `term`'s core, where markers can be put on any line. */
export function normalBuffer(term: Terminal): CoreBuffer | undefined {
  const core = (term as unknown as {
    _core?: { buffers?: { normal?: Partial<CoreBuffer> } };
  })._core;
  const normal = core?.buffers?.normal;
  return typeof normal?.addMarker === "function" ? normal as CoreBuffer : undefined;
}

/** What one take of the history brings. */
export interface HistoryTake {
  /**
   * True when `text` replaces every line taken before: the first take, or
   * the history was cleared, reset or reflowed since.
   */
  reset: boolean;
  /**
   * The new lines as escape sequences with their colours and styles, each
   * ending in `\r\n` (written to a blank terminal, they print the lines);
   * empty when no line scrolled up.
   */
  text: string;
  /** How many lines `text` holds. */
  lines: number;
}

/** Where a {@linkcode HistoryTap}'s next take starts (see {@linkcode HistoryTap.position}). */
export type TapPosition =
  | { kind: "at"; line: number }
  | { kind: "overrun" }
  | { kind: "over" };

/** Follows the history of one terminal. */
export class HistoryTap {
  readonly #term: Terminal;
  readonly #serializer: SerializeAddon;
  #mark: CoreMarker | undefined;
  #startOver = true;

  /** Follows `term`'s history; `serializer` is an addon loaded into it. */
  constructor(term: Terminal, serializer: SerializeAddon) {
    this.#term = term;
    this.#serializer = serializer;
  }

  /** The history changed as a whole (cleared, reset, reflowed): the next take starts over. */
  startOver(): void {
    this.#startOver = true;
  }

  /**
   * The history lines that scrolled up since the last take; at most
   * `limits.lines`, the newest (the older ones are skipped, as if they had
   * scrolled away before the take). When lines already scrolled away
   * untaken (a flood), at most `limits.overrun`: the gap is there anyway.
   */
  take(limits: { lines?: number; overrun?: number } = {}): HistoryTake {
    const buffer = normalBuffer(this.#term);
    const reset = this.#startOver || !this.#mark || !buffer;
    const end = this.#term.buffer.normal.baseY - 1;
    // A marker that dropped off the top: lines scrolled away before they were taken.
    const overrun = !reset && this.#mark!.isDisposed;
    const first = reset || overrun ? 0 : this.#mark!.line;
    const most = overrun
      ? Math.min(limits.lines ?? Infinity, limits.overrun ?? Infinity)
      : limits.lines ?? Infinity;
    const start = Math.max(first, end + 1 - most);
    const lines = Math.max(0, end - start + 1);
    const text = lines === 0
      ? ""
      : historyText({ term: this.#term, serializer: this.#serializer }, { start, end });
    this.#mark?.dispose();
    this.#mark = buffer?.addMarker(end + 1);
    this.#startOver = false;
    return { reset, text, lines };
  }

  /** Every history line, as {@linkcode take} gives them, without moving the marker. */
  all(): string {
    const end = this.#term.buffer.normal.baseY - 1;
    if (end < 0) return "";
    return historyText({ term: this.#term, serializer: this.#serializer }, { start: 0, end });
  }

  /**
   * Where the next take starts, to follow the same history on another
   * terminal that holds it line for line (a screen woken from its sleep):
   * `at` the first line not taken yet, `overrun` when lines scrolled away
   * untaken, or `over` when the next take starts over.
   */
  get position(): TapPosition {
    if (this.#startOver || !this.#mark) return { kind: "over" };
    if (this.#mark.isDisposed) return { kind: "overrun" };
    return { kind: "at", line: this.#mark.line };
  }

  /** Takes up a {@linkcode HistoryTap.position} of a tap that followed the same history. */
  resume(position: TapPosition): void {
    this.#mark?.dispose();
    this.#mark = undefined;
    this.#startOver = true;
    const buffer = normalBuffer(this.#term);
    if (position.kind === "over" || !buffer) return;
    this.#mark = buffer.addMarker(position.kind === "at" ? position.line : 0);
    // Lines that scrolled away untaken are told by a marker that dropped off the top.
    if (position.kind === "overrun") this.#mark.dispose();
    this.#startOver = false;
  }

  /** Stops following. */
  dispose(): void {
    this.#mark?.dispose();
    this.#mark = undefined;
  }
}
