/**
 * History lines written fast (plain lines read from xterm's cells, the rest
 * by the serializer) print the same lines as the serializer's own text: the
 * same characters, widths, colours, styles and wraps, cell by cell.
 */

import xterm from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import serializeAddon from "@xterm/addon-serialize";
import type { SerializeAddon } from "@xterm/addon-serialize";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { historyText, LINE_END } from "../../../lib/screen/history_text.ts";

const ESC = "\x1b";

function terminal(cols: number, rows: number): { term: Terminal; serializer: SerializeAddon } {
  const term = new xterm.Terminal({
    cols,
    rows,
    scrollback: 1000,
    allowProposedApi: true,
    logLevel: "off",
  });
  const serializer = new serializeAddon.SerializeAddon();
  term.loadAddon(serializer);
  return { term, serializer };
}

function writeNow(term: Terminal, data: string): void {
  (term as unknown as { _core: { writeSync(data: string): void } })._core.writeSync(data);
}

/** Every cell of the history lines: characters, width, colours, styles, and each line's wrap. */
function cells(term: Terminal, lines: number): string[] {
  const buffer = term.buffer.normal;
  const out: string[] = [];
  const cell = buffer.getNullCell();
  for (let y = 0; y < lines; y++) {
    const line = buffer.getLine(y)!;
    let row = line.isWrapped ? "~" : "";
    for (let x = 0; x < line.length; x++) {
      line.getCell(x, cell);
      row +=
        `[${cell.getChars()}|${cell.getWidth()}|${cell.getFgColorMode()}:${cell.getFgColor()}` +
        `|${cell.getBgColorMode()}:${cell.getBgColor()}|${cell.isBold()}${cell.isItalic()}` +
        `${cell.isUnderline()}${cell.isInverse()}]`;
    }
    out.push(row);
  }
  return out;
}

/** History lines as a blank terminal of the same size prints them from `text`. */
function printed(text: string, cols: number, rows: number, lines: number): string[] {
  const { term } = terminal(cols, rows);
  writeNow(term, text);
  // Push what is still on the screen up into the history.
  writeNow(term, `${ESC}[${rows};1H${"\n".repeat(term.buffer.normal.cursorY)}`);
  const result = cells(term, lines);
  term.dispose();
  return result;
}

Deno.test("history text: plain and styled lines print as the serializer's own text does", () => {
  const cols = 20;
  const rows = 5;
  const { term, serializer } = terminal(cols, rows);
  const parts = [
    "plain line\r\n",
    "gap   \x1b[5Cafter\r\n",
    "wide 漢字 ok\r\n",
    "accent cafe\u0301\r\n",
    `${ESC}[31mred${ESC}[0m then plain\r\n`,
    `${ESC}[44mblue to the end${ESC}[K${ESC}[0m\r\n`,
    "plain before a wrap\r\n",
    "a line long enough to wrap over three rows of twenty\r\n",
    "\r\n",
    `${ESC}[1;3mbold italic${ESC}[0m\r\n`,
    "last plain\r\n",
  ];
  for (let i = 0; i < 3; i++) writeNow(term, parts.join(""));
  const history = term.buffer.normal.length - rows;
  assert(history > 20, `history of ${history} lines`);
  const fast = historyText({ term, serializer }, { start: 0, end: history - 1 });
  const whole = serializer.serialize({
    range: { start: 0, end: history - 1 },
    excludeModes: true,
    excludeAltBuffer: true,
  }) + LINE_END;
  assert(fast !== whole, "plain lines were written without the serializer");
  const expected = cells(term, history);
  assertEquals(printed(whole, cols, rows, history), expected, "the serializer's text");
  assertEquals(printed(fast, cols, rows, history), expected, "the fast text");
  term.dispose();
});

Deno.test("history text: a flood's plain lines are their characters, read from xterm's cells", () => {
  const { term, serializer } = terminal(40, 4);
  // The last lines printed push the ones before them up into the history.
  writeNow(term, "y\r\n".repeat(500) + "漢 x\r\n" + "tail\r\n" + "on screen\r\n".repeat(3));
  const history = term.buffer.normal.length - 4;
  // If xterm's cell layout moved, every line would go to the serializer, which ends with a reset.
  assertEquals(
    historyText({ term, serializer }, { start: 0, end: history - 1 }),
    "y\r\n".repeat(500) + "漢 x\r\n" + "tail\r\n",
  );
  assertEquals(historyText({ term, serializer }, { start: 10, end: 12 }), "y\r\n".repeat(3));
  term.dispose();
});
