/**
 * Reading a screen's rows out of the emulator's buffer: as plain text, with
 * SGR colours and styles, cropped to a preview box, and as the view agent
 * rules read.
 *
 * @module
 */

import type { IBufferCell, Terminal } from "@xterm/headless";
import { renderSgrLine } from "./sgr_line.ts";
import { type ViewRow, viewRow } from "./view.ts";
import type { ScreenSnapshot } from "../protocol/panes.ts";

/** Options for {@linkcode screenLines} (and the Screen methods built on it). */
export interface CaptureOptions {
  /** Keep colours and styles as SGR codes. */
  ansi?: boolean;
  /** How many scrollback lines to include above the visible rows. */
  scrollback?: number;
}

/**
 * The visible rows of `term` for agent rules; the rows from the top down to
 * `oldRow` (relative to the viewport; -1 for none) read as blank.
 */
export function viewRows(term: Terminal, scratch: IBufferCell, oldRow: number): ViewRow[] {
  const buffer = term.buffer.active;
  const rows = [];
  for (let y = 0; y < term.rows; y++) {
    rows.push(
      y <= oldRow
        ? { text: "", strong: "" }
        : viewRow(buffer.getLine(buffer.viewportY + y), term.cols, scratch),
    );
  }
  return rows;
}

/** The visible rows of `term` as plain text with trailing blanks removed. */
export function visibleLines(term: Terminal): string[] {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true).trimEnd() ?? "");
  }
  return lines;
}

/** The lines of `term`'s screen, with up to `options.scrollback` lines of history first. */
export function screenLines(
  term: Terminal,
  scratch: IBufferCell,
  options: CaptureOptions = {},
): string[] {
  const buffer = term.buffer.active;
  const top = Math.max(0, buffer.baseY - Math.max(0, options.scrollback ?? 0));
  const end = buffer.baseY + term.rows;
  const lines: string[] = [];
  for (let y = top; y < end; y++) {
    const line = buffer.getLine(y);
    if (!line) {
      lines.push("");
    } else if (options.ansi) {
      lines.push(renderSgrLine(line, term.cols, scratch));
    } else {
      lines.push(line.translateToString(true).trimEnd());
    }
  }
  return lines;
}

/**
 * The visible rows of `term` with SGR codes, cut to `box.columns` and fitted
 * to `box.rows` (see `Screen.cropped` for how).
 */
export function croppedLines(
  term: Terminal,
  scratch: IBufferCell,
  box: { columns: number; rows: number },
): string[] {
  const buffer = term.buffer.active;
  const width = Math.min(box.columns, term.cols);
  let used = buffer.cursorY + 1;
  for (let y = term.rows - 1; y >= used; y--) {
    if (buffer.getLine(buffer.baseY + y)?.translateToString(true).trim()) {
      used = y + 1;
      break;
    }
  }
  let kept: number[] = [];
  for (let y = 0; y < used; y++) kept.push(y);
  const blank = (y: number) => !buffer.getLine(buffer.baseY + y)?.translateToString(true).trim();
  if (kept.length > box.rows) kept = kept.filter((y, i) => !(blank(y) && i > 0 && blank(y - 1)));
  return kept.slice(-box.rows).map((y) => {
    const line = buffer.getLine(buffer.baseY + y);
    return line ? renderSgrLine(line, width, scratch) : "";
  });
}

/** The state and lines of `term`'s screen; `options.title` is the title as its owner tracks it. */
export function screenSnapshot(
  term: Terminal,
  scratch: IBufferCell,
  options: CaptureOptions & { title: string },
): ScreenSnapshot {
  const buffer = term.buffer.active;
  const core = term as unknown as {
    _core?: { coreService?: { isCursorHidden?: boolean } };
  };
  return {
    cols: term.cols,
    rows: term.rows,
    cursor: {
      x: buffer.cursorX,
      y: buffer.cursorY,
      visible: !(core._core?.coreService?.isCursorHidden ?? false),
    },
    title: options.title,
    alternate: buffer.type === "alternate",
    bracketed_paste: term.modes.bracketedPasteMode,
    lines: screenLines(term, scratch, options),
  };
}
