/**
 * Renders one screen row as text with SGR colour and style codes, the way
 * `tmux capture-pane -e` does: attributes change only where they differ.
 *
 * @module
 */

import type { IBufferCell, IBufferLine } from "@xterm/headless";

function colorCodes(cell: IBufferCell, background: boolean): string[] {
  const isRgb = background ? cell.isBgRGB() : cell.isFgRGB();
  const isPalette = background ? cell.isBgPalette() : cell.isFgPalette();
  const color = background ? cell.getBgColor() : cell.getFgColor();
  if (isRgb) {
    return [
      background ? "48" : "38",
      "2",
      String(color >> 16 & 255),
      String(color >> 8 & 255),
      String(color & 255),
    ];
  }
  if (isPalette) {
    if (color < 8) return [String((background ? 40 : 30) + color)];
    if (color < 16) return [String((background ? 100 : 90) + color - 8)];
    return [background ? "48" : "38", "5", String(color)];
  }
  return [];
}

/** The SGR parameters that set a cell's attributes from a reset state. */
export function sgrOf(cell: IBufferCell): string {
  const codes: string[] = [];
  if (cell.isBold()) codes.push("1");
  if (cell.isDim()) codes.push("2");
  if (cell.isItalic()) codes.push("3");
  if (cell.isUnderline()) codes.push("4");
  if (cell.isBlink()) codes.push("5");
  if (cell.isInverse()) codes.push("7");
  if (cell.isInvisible()) codes.push("8");
  if (cell.isStrikethrough()) codes.push("9");
  codes.push(...colorCodes(cell, false), ...colorCodes(cell, true));
  return codes.join(";");
}

/** Whether a blank in this style shows: a background, inverse, or a line through or under it. */
function blankShows(sgr: string): boolean {
  return /(^|;)(4[0-9]?|10[0-7]|7|9|53)(;|$)/.test(sgr);
}

/** Renders `line` with SGR codes, trailing blanks removed, ending in a reset when styled. */
export function renderSgrLine(line: IBufferLine, cols: number, scratch: IBufferCell): string {
  let out = "";
  let current = "";
  // Blanks that do not show wait until a visible cell follows, so a row never ends in them.
  let pending = "";
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell || cell.getWidth() === 0) continue;
    // A wide character cut in half by the last column shows as a blank.
    const chars = cell.getWidth() === 2 && x + 1 >= cols ? " " : cell.getChars() || " ";
    const sgr = sgrOf(cell);
    if (chars === " " && !blankShows(sgr)) {
      pending += " ";
      continue;
    }
    if (pending !== "") {
      if (current !== "") {
        out += "\x1b[0m";
        current = "";
      }
      out += pending;
      pending = "";
    }
    if (sgr !== current) {
      out += sgr === "" ? "\x1b[0m" : `\x1b[0;${sgr}m`;
      current = sgr;
    }
    out += chars;
  }
  return current === "" ? out : out + "\x1b[0m";
}
