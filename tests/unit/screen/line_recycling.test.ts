import { assert, assertEquals } from "../../helpers/assert.ts";
import xterm from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import { recycleLinesWithoutGarbage } from "../../../lib/screen/line_recycling.ts";

const encoder = new TextEncoder();

interface CoreLine {
  _combined: object;
  _extendedAttrs: object;
}

function terminal(cols: number, rows: number, scrollback: number): Terminal {
  return new xterm.Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: "off" });
}

/** Runs `body` on a terminal whose line class recycles without garbage, then disposes it. */
function withTerminal(
  size: { cols: number; rows: number; scrollback: number },
  body: (term: Terminal) => void,
): void {
  const term = terminal(size.cols, size.rows, size.scrollback);
  try {
    recycleLinesWithoutGarbage(term);
    body(term);
  } finally {
    term.dispose();
  }
}

function feed(term: Terminal, text: string): void {
  (term as unknown as { _core: { writeSync(data: Uint8Array): void } })._core.writeSync(
    encoder.encode(text),
  );
}

/** The line object behind row `y` of the normal buffer (history included). */
function coreLine(term: Terminal, y: number): CoreLine {
  return (term as unknown as {
    _core: { _bufferService: { buffers: { normal: { lines: { get(i: number): CoreLine } } } } };
  })._core._bufferService.buffers.normal.lines.get(y);
}

function rows(term: Terminal): string[] {
  const buffer = term.buffer.normal;
  const out: string[] = [];
  for (let y = 0; y < buffer.length; y++) out.push(buffer.getLine(y)!.translateToString(true));
  return out;
}

/** The rows with an underlined cell. */
function underlined(term: Terminal): number[] {
  const buffer = term.buffer.normal;
  const found: number[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    for (let x = 0; x < term.cols; x++) {
      if (line.getCell(x)?.isUnderline()) {
        found.push(y);
        break;
      }
    }
  }
  return found;
}

Deno.test("line recycling: a full scrollback reuses a line's empty maps instead of making new ones", () => {
  const term = terminal(20, 3, 4);
  try {
    assert(recycleLinesWithoutGarbage(term), "xterm's line class has the fields it needs");
    assert(recycleLinesWithoutGarbage(term), "a second call finds it done");
    feed(term, "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng");
    assertEquals(term.buffer.normal.length, 7, "the ring is full");
    const top = coreLine(term, 0);
    const maps = [top._combined, top._extendedAttrs];
    // The next line feed drops the top line and reuses its object at the bottom.
    feed(term, "\r\nh");
    assertEquals(coreLine(term, 6), top, "the dropped line's object came back at the bottom");
    assertEquals([top._combined, top._extendedAttrs], maps, "with the same empty maps");
    assertEquals(rows(term), ["b", "c", "d", "e", "f", "g", "h"]);
  } finally {
    term.dispose();
  }
});

Deno.test("line recycling: combined characters, underline styles and links never outlive their line", () => {
  withTerminal({ cols: 20, rows: 3, scrollback: 4 }, (term) => {
    // Lines with what the two maps hold: a combining accent, a curly coloured underline, a link.
    feed(term, "e\u0301te\r\n\x1b[4:3m\x1b[58;5;1mcurly\x1b[0m\r\n");
    feed(term, "\x1b]8;;https://example.com\x07link\x1b]8;;\x07\r\n");
    assert(Object.keys(coreLine(term, 0)._combined).length > 0, "the accent is a combined cell");
    assert(Object.keys(coreLine(term, 1)._extendedAttrs).length > 0, "the underline is extended");
    // Plain lines push them out, many times round the ring.
    for (let i = 0; i < 30; i++) feed(term, `plain ${i}\r\n`);
    feed(term, "last");
    assertEquals(rows(term), [
      "plain 24",
      "plain 25",
      "plain 26",
      "plain 27",
      "plain 28",
      "plain 29",
      "last",
    ]);
    for (let y = 0; y < term.buffer.normal.length; y++) {
      assertEquals(Object.keys(coreLine(term, y)._combined), [], `row ${y}'s combined cells`);
      assertEquals(Object.keys(coreLine(term, y)._extendedAttrs), [], `row ${y}'s extended cells`);
    }
    assertEquals(underlined(term), [], "no underline left");

    // A recycled line takes a combined character and an underline style as a new one does.
    feed(term, "\r\n\x1b[4:3mwavy\x1b[0m a\u0300\r\nx");
    const rowsNow = rows(term);
    assertEquals(rowsNow.slice(-2), ["wavy a\u0300", "x"]);
    const wavy = term.buffer.normal.length - 2;
    assertEquals(underlined(term), [wavy], "the new line's underline shows");
    assert(Object.keys(coreLine(term, wavy)._extendedAttrs).length > 0, "with its style");
  });
});

Deno.test("line recycling: a clear empties lines that held combined characters, and keeps empty maps", () => {
  withTerminal({ cols: 20, rows: 3, scrollback: 10 }, (term) => {
    feed(term, "plain\r\nalso plain");
    const plain = coreLine(term, 0);
    const maps = [plain._combined, plain._extendedAttrs];
    feed(term, "\x1b[2J\x1b[Hn\u0303o");
    assertEquals(
      [plain._combined, plain._extendedAttrs],
      maps,
      "an empty line was cleared in place",
    );
    assertEquals(rows(term).slice(0, 2), ["n\u0303o", ""]);
    feed(term, "\x1b[2J\x1b[Hclean");
    assertEquals(rows(term).slice(0, 2), ["clean", ""]);
    assertEquals(Object.keys(coreLine(term, 0)._combined), [], "the accent went with the clear");
  });
});
