/**
 * History lines as escape sequences, at the speed of reading them. xterm's
 * serializer looks at each of a line's cells through an object and compares
 * every attribute with the cell before: about 5 µs a line even for `y`, so
 * an upgrade under fifty floods of 10,000 lines spent seconds on it. Most
 * history lines are plain (no colour, no style, not wrapped): such a line is
 * its characters, read here straight from xterm's cell array. Every other
 * line goes to the serializer, in runs, as before.
 *
 * Each run the serializer writes ends with a reset pen and a line end, and
 * a plain line writes no pen, so the runs stand on their own and the parts
 * join into the text the serializer gives for the whole range, up to
 * equivalent sequences.
 *
 * The cell array is xterm's private layout (pinned 6.0.0: three words a cell,
 * the content word with the code point, a combined flag and the width, then
 * the foreground and background words with every attribute). A line whose
 * fields are not as expected goes to the serializer, which is correct, only
 * dearer; `tests/unit/screen/history_text.test.ts` fails if they move.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import type { SerializeAddon } from "@xterm/addon-serialize";
import { normalLineRing } from "./xterm_memory.ts";

/** Escape sequences that reset the attributes and end a line. */
export const LINE_END = "\x1b[0m\r\n";

/** The parts of xterm's private line read here. */
interface CoreLine {
  _data: Uint32Array;
  length: number;
  isWrapped: boolean;
}

/** Words a cell takes in a line's array. */
const CELL_WORDS = 3;
/** The code point's bits in the content word. */
const CODEPOINT_MASK = 0x1fffff;
/** Set in the content word when the cell holds more than one code point. */
const COMBINED_FLAG = 0x200000;
/** Where the cell's width starts in the content word. */
const WIDTH_SHIFT = 22;

function isCoreLine(line: unknown): line is CoreLine {
  const candidate = line as Partial<CoreLine> | undefined;
  return candidate?._data instanceof Uint32Array && typeof candidate.length === "number" &&
    typeof candidate.isWrapped === "boolean" &&
    candidate._data.length >= candidate.length * CELL_WORDS;
}

/**
 * The text of a plain line: one without colours, styles, combined
 * characters or a wrap into the next line; `undefined` for any other. Gaps
 * of empty cells are skipped with a cursor move (so they stay empty, as the
 * serializer leaves them) and trailing ones are left out.
 */
function plainLine(line: unknown, next: unknown): string | undefined {
  if (!isCoreLine(line) || line.isWrapped) return undefined;
  if (next !== undefined && (!isCoreLine(next) || next.isWrapped)) return undefined;
  const data = line._data;
  let text = "";
  let gap = 0;
  for (let x = 0; x < line.length; x++) {
    const at = x * CELL_WORDS;
    if (data[at + 1] !== 0 || data[at + 2] !== 0) return undefined;
    const content = data[at];
    if (content & COMBINED_FLAG) return undefined;
    // The cell after a wide character holds nothing and takes no column of its own.
    if (content >>> WIDTH_SHIFT === 0) continue;
    const codePoint = content & CODEPOINT_MASK;
    if (codePoint === 0) {
      gap++;
      continue;
    }
    if (gap > 0) {
      text += `\x1b[${gap}C`;
      gap = 0;
    }
    text += String.fromCodePoint(codePoint);
  }
  return text;
}

/** A terminal with a serializer loaded into it. */
export interface SerializedTerminal {
  /** The terminal. */
  term: Terminal;
  /** Its serializer, which writes the lines that are not plain. */
  serializer: SerializeAddon;
}

/**
 * History lines `start` to `end` (inclusive, indexes into the normal
 * buffer) of `source` as escape sequences with their colours and styles,
 * each line ending in `\r\n` and the pen reset at the end: written to a
 * blank terminal, they print the lines.
 */
export function historyText(
  source: SerializedTerminal,
  range: { start: number; end: number },
): string {
  const { term, serializer } = source;
  const ring = normalLineRing(term);
  // Joined once at the end: a string grown line by line is a tree of thousands of pieces,
  // which the collector traces for as long as the state is kept.
  const parts: string[] = [];
  // The first line of a run the serializer is still to write, or -1.
  let run = -1;
  const flush = (end: number) => {
    if (run < 0) return;
    parts.push(
      serializer.serialize({
        range: { start: run, end },
        excludeModes: true,
        excludeAltBuffer: true,
      }),
      LINE_END,
    );
    run = -1;
  };
  for (let y = range.start; y <= range.end; y++) {
    const text = ring
      ? plainLine(ring.get(y), y + 1 < ring.length ? ring.get(y + 1) : undefined)
      : undefined;
    if (text === undefined) {
      if (run < 0) run = y;
      continue;
    }
    flush(y - 1);
    parts.push(text, "\r\n");
  }
  flush(range.end);
  return parts.join("");
}
