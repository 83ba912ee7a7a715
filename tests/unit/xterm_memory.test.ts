import { assert, assertEquals } from "../helpers/assert.ts";
import xterm from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import { Screen } from "../../lib/screen/screen.ts";
import {
  compactHandlerLists,
  FIRST_SCROLLBACK,
  growScrollback,
  shrinkParseBuffer,
} from "../../lib/screen/xterm_memory.ts";

const encoder = new TextEncoder();

function reference(cols: number, rows: number, scrollback: number): Terminal {
  return new xterm.Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: "off" });
}

function feed(term: Terminal, bytes: Uint8Array): void {
  (term as unknown as { _core: { writeSync(data: Uint8Array): void } })._core.writeSync(bytes);
}

/** Every line of the reference's normal buffer, as Screen.lines() shows them. */
function referenceLines(term: Terminal): string[] {
  const buffer = term.buffer.normal;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    lines.push(buffer.getLine(y)!.translateToString(true).trimEnd());
  }
  return lines;
}

/** Output that scrolls a lot: numbered lines, long wrapped lines, colours and one huge burst. */
function chunks(): Uint8Array[] {
  const parts: string[] = [];
  for (let i = 0; i < 40; i++) parts.push(`line ${i}\r\n`);
  parts.push("\x1b[31m" + "wrapped ".repeat(30) + "\x1b[0m\r\n");
  parts.push(Array.from({ length: 3000 }, (_, i) => `burst ${i}`).join("\r\n") + "\r\n");
  for (let i = 0; i < 700; i++) parts.push(`tail ${i} ${"x".repeat(i % 90)}\r\n`);
  return parts.map((part) => encoder.encode(part));
}

Deno.test("xterm memory: the private fields it relies on exist in the pinned xterm", () => {
  const term = reference(80, 24, 100);
  try {
    assert(compactHandlerLists(term) > 50, "handler lists found");
    assert(shrinkParseBuffer(term), "the parse buffer found");
    const core = (term as unknown as {
      _core: { optionsService: { rawOptions: { scrollback: number } } };
    })._core;
    assertEquals(core.optionsService.rawOptions.scrollback, 100);
    // 24 rows of lines now, 1000 more to come: room for them and the first ring's size again.
    assertEquals(growScrollback(term, 1000, 5000), 1000 + FIRST_SCROLLBACK);
    assertEquals(core.optionsService.rawOptions.scrollback, 1000 + FIRST_SCROLLBACK);
    assertEquals(growScrollback(term, 100_000, 5000), 5000);
  } finally {
    term.dispose();
  }
});

Deno.test("xterm memory: compacted handlers still parse every sequence", () => {
  const term = reference(40, 6, 10);
  const plain = reference(40, 6, 10);
  try {
    compactHandlerLists(term);
    const bytes = encoder.encode(
      "a\x1b[1;31mb\x1b[0m\x1b[3;5Hc\x1b]0;title\x07\x1b[2Jd\x1b[?1049he\x1b[?1049lf\x1bP$qm\x1b\\",
    );
    feed(term, bytes);
    feed(plain, bytes);
    assertEquals(referenceLines(term), referenceLines(plain));
    assertEquals(term.buffer.active.cursorX, plain.buffer.active.cursorX);
  } finally {
    term.dispose();
    plain.dispose();
  }
});

Deno.test("Screen: scrollback that grows with the output keeps every line a full ring keeps", async (t) => {
  for (const limit of [500, 5000]) {
    await t.step(`scrollback ${limit}`, () => {
      const screen = new Screen(40, 6, { scrollback: limit, respond: () => {} });
      const full = reference(40, 6, limit);
      try {
        for (const chunk of chunks()) {
          screen.writeSync(chunk);
          feed(full, chunk);
        }
        const want = referenceLines(full);
        assertEquals(screen.lines({ scrollback: limit * 2 }), want);
        assert(want.length > FIRST_SCROLLBACK * 4, "the output overflowed the first ring");
      } finally {
        screen.dispose();
        full.dispose();
      }
    });
  }
});

Deno.test("Screen: the asynchronous write makes room for everything queued", async () => {
  const screen = new Screen(40, 6, { scrollback: 3000, respond: () => {} });
  const full = reference(40, 6, 3000);
  try {
    const all = chunks();
    await Promise.all(all.map((chunk) => new Promise<void>((done) => screen.write(chunk, done))));
    for (const chunk of all) feed(full, chunk);
    assertEquals(screen.lines({ scrollback: 10_000 }), referenceLines(full));
  } finally {
    screen.dispose();
    full.dispose();
  }
});

Deno.test("Screen: growing the scrollback keeps the program's tab stops", () => {
  const screen = new Screen(40, 6, { scrollback: 1000, respond: () => {} });
  try {
    // Clear every tab stop, set one at column 5, then scroll enough to grow the ring.
    screen.writeSync(encoder.encode("\x1b[3g\x1b[6G\x1bH\r\n"));
    screen.writeSync(encoder.encode("x\r\n".repeat(400)));
    screen.writeSync(encoder.encode("\t\tX"));
    // With the one stop at 5, the second tab goes to the last column.
    assertEquals(screen.snapshot().cursor.x, 40);
    assertEquals(screen.visibleLines().at(-1), " ".repeat(39) + "X");
  } finally {
    screen.dispose();
  }
});

Deno.test("Screen: a resize after growth reflows like a full ring", () => {
  const screen = new Screen(40, 6, { scrollback: 800, respond: () => {} });
  const full = reference(40, 6, 800);
  try {
    for (const chunk of chunks().slice(0, 45)) {
      screen.writeSync(chunk);
      feed(full, chunk);
    }
    screen.resize(15, 4);
    full.resize(15, 4);
    const tail = encoder.encode("after the resize ".repeat(20));
    screen.writeSync(tail);
    feed(full, tail);
    assertEquals(screen.lines({ scrollback: 5000 }), referenceLines(full));
  } finally {
    screen.dispose();
    full.dispose();
  }
});

Deno.test("Screen: compact shrinks the decode buffer, and parsing goes on", () => {
  const screen = new Screen(40, 6, { scrollback: 100, respond: () => {} });
  try {
    screen.writeSync(encoder.encode("y\r\n".repeat(20_000)));
    screen.compact();
    screen.writeSync(encoder.encode("\x1b[2J\x1b[Hafter compact"));
    assertEquals(screen.capture(), "after compact");
  } finally {
    screen.dispose();
  }
});
