/**
 * Showing a saved screen as history: what a program printed before it
 * ended, drawn as plain lines above whatever runs next, with a line that
 * marks where the new program starts.
 *
 * @module
 */

import { newlineCount, type SavedScreen, Screen } from "./screen.ts";

/** Strips SGR codes, to tell a blank rendered row from one with text. */
function plain(line: string): string {
  return line.replace(/\x1b\[[0-9;:]*m/g, "");
}

/** The visible rows of `screen`, rendered with SGR codes, blank rows at the bottom left out. */
function shownRows(screen: Screen): string[] {
  const rows = screen.lines({ ansi: true });
  while (rows.length > 0 && plain(rows[rows.length - 1]).trim() === "") rows.pop();
  return rows;
}

/**
 * A marker line: `text` between rules, drawn dim, `cols` wide, ending the
 * line. It stands out from what a program prints and reads as Skiff's.
 */
export function markerLine(text: string, cols: number): string {
  const label = `── ${text} `;
  const fill = Math.max(2, cols - [...label].length);
  return `\x1b[0m\x1b[2m${label}${"─".repeat(fill)}\x1b[0m\r\n`;
}

/**
 * Escape sequences that print `saved` as history: its history lines, then
 * the lines its visible screen showed (the normal screen's, then the
 * alternate screen's when a full-screen program was in front), each with
 * the blank rows at its bottom left out, then `marker` as a {@linkcode markerLine}. Written to a fresh screen
 * of the saved width, they leave the cursor at the start of the next line,
 * where the next program's output goes.
 */
export function historyAbove(saved: SavedScreen, marker: string): string {
  const scratch = new Screen(saved.cols, saved.rows, { scrollback: 0, respond: () => {} });
  const encoder = new TextEncoder();
  let rows: string[];
  try {
    scratch.writeSync(encoder.encode(saved.viewport));
    if (scratch.alternate) {
      // What the normal screen showed under the full-screen program comes first.
      const alternate = shownRows(scratch);
      scratch.writeSync(encoder.encode("\x1b[?1049l"));
      rows = [...shownRows(scratch), ...alternate];
    } else {
      rows = shownRows(scratch);
    }
  } finally {
    scratch.dispose();
  }
  const shown = rows.map((row) => `${row}\x1b[0m\r\n`).join("");
  return saved.history + shown + markerLine(marker, saved.cols);
}

/**
 * At least as many lines as {@linkcode historyAbove} draws for `saved`: its
 * history, the normal screen's rows and the alternate screen's, and the
 * marker. Counted without drawing anything.
 */
export function historyAboveLines(saved: SavedScreen): number {
  return newlineCount(saved.history) + 2 * saved.rows + 1;
}
