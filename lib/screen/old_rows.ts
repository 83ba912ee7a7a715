/**
 * The rows an earlier process left on a screen (the history drawn above a
 * restored pane's new program). Agent rules must never read an old agent's
 * busy line or input box as the new program's, so these rows are followed
 * until they leave the screen or a clear wipes them.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import { type CoreMarker, normalBuffer } from "./history_tap.ts";

/** Follows the last row an earlier process left on one terminal. */
export class OldRows {
  readonly #term: Terminal;
  #until: CoreMarker | undefined;

  /** Follows old rows on `term`; none at first. */
  constructor(term: Terminal) {
    this.#term = term;
  }

  /** Marks every row up to the one above the cursor as old. */
  markAbove(): void {
    const buffer = this.#term.buffer.normal;
    this.markUpTo(buffer.baseY + buffer.cursorY - 1);
  }

  /** Marks every row of the normal screen up to `line` (counted from the top of its history) as old. */
  markUpTo(line: number): void {
    this.#until?.dispose();
    this.#until = line >= 0 ? normalBuffer(this.#term)?.addMarker(line) : undefined;
  }

  /** The last old row, counted from the top of the normal screen's history, if any. */
  get until(): number | undefined {
    return this.#until && !this.#until.isDisposed ? this.#until.line : undefined;
  }

  /** No row is old any more (the screen was cleared or reset). */
  forget(): void {
    this.#until?.dispose();
    this.#until = undefined;
  }

  /**
   * The last old row within the visible rows (0-based; below 0 when none
   * shows). The alternate screen never holds old rows.
   */
  lastVisible(): number {
    const buffer = this.#term.buffer.active;
    return buffer.type === "normal" && this.#until && !this.#until.isDisposed
      ? this.#until.line - buffer.viewportY
      : -1;
  }
}
