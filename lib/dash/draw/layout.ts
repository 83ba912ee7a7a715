/**
 * Where each part of the dashboard goes for a terminal's size: a header
 * row, the list, the preview beside the list when the terminal is wide
 * enough (100 columns and more) or below it when not, and a status row at
 * the bottom. Pure, so the layout tests need no terminal.
 *
 * @module
 */

/** A rectangle of cells; `x` and `y` from 0. */
export interface Box {
  /** The first column. */
  x: number;
  /** The first row. */
  y: number;
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
}

/** The parts' places. */
export interface Layout {
  /** The terminal's columns. */
  cols: number;
  /** The terminal's rows. */
  rows: number;
  /** The header row. */
  header: Box;
  /** The list. */
  list: Box;
  /** The preview, or null when the terminal is too small for one. */
  preview: Box | null;
  /** The line between list and preview: `beside` (a column) or `below` (a row), or null. */
  split: { kind: "beside" | "below"; at: number } | null;
  /** The status row. */
  status: Box;
}

/** From this many columns on, the preview sits beside the list. */
export const BESIDE_FROM_COLS = 100;

/** Below this size, the list fills the screen alone. */
const MIN_PREVIEW = { cols: 30, rows: 12 };

/** The layout for a terminal of `cols` × `rows`. */
export function layout(cols: number, rows: number): Layout {
  const header: Box = { x: 0, y: 0, width: cols, height: 1 };
  const status: Box = { x: 0, y: Math.max(1, rows - 1), width: cols, height: 1 };
  const body = Math.max(0, rows - 2);
  if (cols >= BESIDE_FROM_COLS && body >= 3) {
    const listWidth = Math.max(48, Math.min(72, Math.round(cols * 0.45)));
    return {
      cols,
      rows,
      header,
      status,
      list: { x: 0, y: 1, width: listWidth, height: body },
      split: { kind: "beside", at: listWidth },
      preview: { x: listWidth + 1, y: 1, width: cols - listWidth - 1, height: body },
    };
  }
  if (cols < MIN_PREVIEW.cols || rows < MIN_PREVIEW.rows) {
    return {
      cols,
      rows,
      header,
      status,
      list: { x: 0, y: 1, width: cols, height: body },
      split: null,
      preview: null,
    };
  }
  const listHeight = Math.max(4, Math.floor(body * 0.45));
  return {
    cols,
    rows,
    header,
    status,
    list: { x: 0, y: 1, width: cols, height: listHeight },
    split: { kind: "below", at: 1 + listHeight },
    preview: { x: 0, y: 2 + listHeight, width: cols, height: body - listHeight - 1 },
  };
}
