/**
 * A plain view of the visible screen for agent rules: each row as text, and
 * the same row with faint text (dim, or grey on the default background)
 * blanked out. Placeholders and autosuggestions are drawn faint, so a
 * composer whose strong text is empty holds no draft.
 *
 * @module
 */

import type { IBufferCell, IBufferLine } from "@xterm/headless";

/** One visible row. */
export interface ViewRow {
  /** The row's text, trailing blanks removed. */
  text: string;
  /** The row's text with faint characters replaced by spaces, trailing blanks removed. */
  strong: string;
}

/** An agent's own report of its state: `ESC ] 7501 ; state=…:app=…[:kind=…] ST`. */
export interface AgentStatusReport {
  /** `idle`, `working`, `done` or `blocked`. */
  state: string;
  /** The program that sent it, such as `codex`. */
  app: string;
  /** More detail, such as `permission`. */
  kind?: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** Parses the body of an OSC 7501 report. */
export function parseStatusReport(data: string): AgentStatusReport | undefined {
  const fields: Record<string, string> = {};
  for (const part of data.split(":")) {
    const eq = part.indexOf("=");
    if (eq > 0) fields[part.slice(0, eq)] = part.slice(eq + 1);
  }
  if (!fields.state) return undefined;
  return { state: fields.state, app: fields.app ?? "", kind: fields.kind, at: Date.now() };
}

/** The visible screen, as agent rules read it. */
export interface ScreenView {
  /** Visible rows, top to bottom. */
  rows: ViewRow[];
  /** The window title. */
  title: string;
  /** The last OSC 9;4 progress state (0 none, 1 value, 2 error, 3 indeterminate, 4 paused), or `undefined`. */
  progress?: number;
  /** Whether the program enabled bracketed paste. */
  bracketedPaste: boolean;
  /** The last agent status report (OSC 7501, as Codex sends), if any. */
  status?: AgentStatusReport;
  /** The cursor row, 0-based. */
  cursorY: number;
}

function isGreyRgb(color: number): boolean {
  const r = color >> 16 & 255;
  const g = color >> 8 & 255;
  const b = color & 255;
  return Math.max(r, g, b) - Math.min(r, g, b) < 24 && Math.max(r, g, b) < 180;
}

/** Whether a cell is drawn faint: dim, or a grey foreground. */
export function isFaint(cell: IBufferCell): boolean {
  if (cell.isDim()) return true;
  if (cell.isFgRGB()) return isGreyRgb(cell.getFgColor());
  if (cell.isFgPalette()) {
    const color = cell.getFgColor();
    return color === 8 || color === 0 || (color >= 232 && color <= 250);
  }
  return false;
}

/** Reads one buffer line as a {@linkcode ViewRow}. */
export function viewRow(
  line: IBufferLine | undefined,
  cols: number,
  scratch: IBufferCell,
): ViewRow {
  if (!line) return { text: "", strong: "" };
  let text = "";
  let strong = "";
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell || cell.getWidth() === 0) continue;
    const chars = cell.getChars() || " ";
    text += chars;
    // Blank with as many code units as the text has, so both strings index alike.
    strong += chars !== " " && isFaint(cell) ? " ".repeat(chars.length) : chars;
  }
  return { text: text.trimEnd(), strong: strong.trimEnd() };
}
