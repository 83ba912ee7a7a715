/**
 * A screen rebuilt with the older part of its history held aside reads as
 * the whole screen it came from: against the screen it was saved from, fed
 * the same output, every capture, redraw, saved state and view is the same,
 * whether the output stopped in the middle of an escape sequence, cleared
 * the history, or filled the scrollback; and nothing but a read of the
 * history builds it.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { unfinishedStart } from "../../../lib/screen/history_aside.ts";
import { DEFLATE } from "../../../lib/daemon/screens/screen_sleeper.ts";

const ESC = "\x1b";
const encoder = new TextEncoder();

function screen(cols: number, rows: number, scrollback = 10_000): Screen {
  return new Screen(cols, rows, { scrollback, respond: () => {} });
}

function write(s: Screen, text: string | Uint8Array): void {
  s.writeSync(typeof text === "string" ? encoder.encode(text) : text);
}

/** Everything observable of a screen, for comparing two. */
function picture(s: Screen) {
  return {
    lines: s.capture({ ansi: true, scrollback: 20_000 }),
    snapshot: s.snapshot({ scrollback: 10 }),
    redraw: s.redraw({ scrollback: 20_000 }),
    view: s.view(),
    flags: [s.title, s.bells, s.alternate, s.bracketedPaste, s.applicationCursorKeys, s.progress],
    history: s.historyLines,
    state: s.saveState(),
  };
}

/** `value` as JSON with every object's keys in order. */
function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1))
        : v,
  );
}

/** Asserts two pictures equal, telling the first place they differ in a line. */
function assertSame(
  actual: ReturnType<typeof picture>,
  expected: ReturnType<typeof picture>,
  label = "",
) {
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    const a = canonical(actual[key]);
    const e = canonical(expected[key]);
    if (a === e) continue;
    let at = 0;
    while (a[at] === e[at]) at++;
    throw new Error(
      `${label} ${key} differs at ${at}: ${a.slice(Math.max(0, at - 80), at + 80)} / ${
        e.slice(Math.max(0, at - 80), at + 80)
      }`,
    );
  }
}

function colouredLines(count: number, from = 0): string {
  let text = "";
  for (let i = from; i < from + count; i++) {
    text += `${ESC}[3${i % 8}mline ${i}${ESC}[0m of the history${i % 7 === 0 ? " é 中" : ""}\r\n`;
  }
  return text;
}

/**
 * Writes `before` into a screen, rebuilds a second one from its state split
 * at `keep` lines, then writes each chunk into both; returns both.
 */
function heldAside(
  size: { cols: number; rows: number; scrollback?: number },
  before: string,
  keep: number,
): { source: Screen; held: Screen; both: (chunk: string | Uint8Array) => void } {
  const original = screen(size.cols, size.rows, size.scrollback);
  write(original, before);
  const split = original.splitState(keep);
  // The screen to compare with is rebuilt whole from the same state.
  const source = screen(size.cols, size.rows, size.scrollback);
  source.restoreState(original.saveState());
  original.dispose();
  assert(split.aside, "the history splits");
  const held = Screen.withHistoryAside(split.state, split.aside, {
    scrollback: size.scrollback ?? 10_000,
    respond: () => {},
  });
  assertEquals(held.historyAside, split.aside.lines);
  assertEquals(held.historyLines, source.historyLines, "counted with the lines aside");
  const both = (chunk: string | Uint8Array) => (write(source, chunk), write(held, chunk));
  return { source, held, both };
}

Deno.test("history aside: reads as the whole screen, built only when the history is read", () => {
  const { source, held, both } = heldAside(
    { cols: 80, rows: 24 },
    `${ESC}]2;a title${ESC}\\` + colouredLines(3000) + "x".repeat(300) + "\r\n$ ",
    100,
  );
  assert(held.historyAside > 2800, `most lines aside: ${held.historyAside}`);
  both(colouredLines(200, 3000));
  assertEquals(held.view(), source.view(), "the visible screen needs no history");
  assertEquals(held.visibleLines(), source.visibleLines());
  assertEquals(held.title, source.title);
  assert(held.historyAside > 0, "nothing read the history yet");
  assertSame(picture(held), picture(source));
  assertEquals(held.historyAside, 0, "built once read");
  both(`${ESC}[1;4mafter${ESC}[0m\r\n$ `);
  assertSame(picture(held), picture(source), "and runs on whole");
  source.dispose();
  held.dispose();
});

Deno.test("history aside: output that stopped in the middle of a sequence goes on after the build", () => {
  const { source, held, both } = heldAside({ cols: 60, rows: 10 }, colouredLines(500), 20);
  const cuts: (string | Uint8Array)[][] = [
    ["more\r\n" + `${ESC}[3`, `1mred${ESC}[0m\r\n`],
    [`${ESC}]2;a ti`, `tle${ESC}\\after\r\n`],
    [`${ESC}]0;x${ESC}`, `\\y\r\n`],
    [encoder.encode("é").subarray(0, 1), encoder.encode("é").subarray(1)],
    [`${ESC}`, `[1;4mstyled${ESC}[0m\r\n`],
  ];
  for (const [first, rest] of cuts) {
    both(first);
    // Reading the history now builds it while the parser is in the middle of a sequence.
    assertEquals(held.capture({ scrollback: 20_000 }), source.capture({ scrollback: 20_000 }));
    both(rest);
    assertSame(picture(held), picture(source));
  }
  // Again, on a screen that holds its history aside still.
  const again = heldAside({ cols: 60, rows: 10 }, colouredLines(500), 20);
  again.both(`x${ESC}[3`);
  assert(again.held.historyAside > 0);
  assert(again.held.sleep(DEFLATE) === false, "no sleep in the middle of a sequence");
  assert(again.held.historyAside > 0, "and no build for it");
  again.held.resize(50, 12);
  again.source.resize(50, 12);
  again.both(`1mred${ESC}[0m\r\n`);
  assertSame(picture(again.held), picture(again.source), "built by the resize");
  for (const s of [source, held, again.source, again.held]) s.dispose();
});

Deno.test("history aside: a full scrollback drops the oldest lines aside first", () => {
  const { source, held, both } = heldAside(
    { cols: 40, rows: 8, scrollback: 1000 },
    colouredLines(1500),
    50,
  );
  assertEquals(held.historyLines, 1000);
  both(colouredLines(700, 1500));
  assertEquals(held.historyLines, 1000, "never past the scrollback");
  assertSame(picture(held), picture(source));
  const lines = held.capture({ scrollback: 20_000 }).split("\n");
  assertEquals(lines[0], "line 1193 of the history");
  source.dispose();
  held.dispose();
});

Deno.test("history aside: a program that clears or resets the history clears the lines aside", () => {
  for (const clear of [`${ESC}[3J`, `${ESC}c`]) {
    const { source, held, both } = heldAside({ cols: 40, rows: 8 }, colouredLines(400), 20);
    both(`cleared${clear}after\r\n`);
    assertEquals(held.historyAside, 0, `${JSON.stringify(clear)} leaves nothing aside`);
    assertSame(picture(held), picture(source));
    source.dispose();
    held.dispose();
  }
});

Deno.test("history aside: a long line wrapped over rows is never cut; asleep and awake again whole", () => {
  let before = "";
  for (let i = 0; i < 300; i++) before += `${i} ${"w".repeat(150)}\r\n`;
  before += "$ ls\r\n";
  const { source, held, both } = heldAside({ cols: 80, rows: 10 }, before, 33);
  assertEquals(held.historyAside % 2, 0, "whole lines of two rows each go aside");
  both("short\r\n");
  assert(held.sleep(DEFLATE), "sleeps, built first");
  assertEquals(held.historyAside, 0);
  assertSame(picture(held), picture(source));
  source.dispose();
  held.dispose();
});

Deno.test("history aside: a short history or an alternate screen's stays whole", () => {
  const short = screen(40, 10);
  write(short, colouredLines(15));
  assertEquals(short.splitState(5).aside, undefined, "fewer lines above the cut than a screenful");
  const full = screen(40, 10);
  write(full, colouredLines(200) + `${ESC}[?1049hfull-screen program`);
  const { state, aside } = full.splitState(20);
  assert(aside !== undefined, "the normal screen's history splits");
  const held = Screen.withHistoryAside(state, aside, { scrollback: 10_000, respond: () => {} });
  assertEquals(held.alternate, true);
  write(held, `${ESC}[?1049lback`);
  write(full, `${ESC}[?1049lback`);
  assertSame(picture(held), picture(full));
  for (const s of [short, full, held]) s.dispose();
});

Deno.test("history aside: where an unfinished sequence or character starts", () => {
  const at = (text: string | Uint8Array) =>
    unfinishedStart(typeof text === "string" ? encoder.encode(text) : text);
  assertEquals(at("plain text\r\n"), 12);
  assertEquals(at(`a${ESC}[31mb`), 7, "a finished CSI");
  assertEquals(at(`ab${ESC}[3`), 2, "an unfinished CSI");
  assertEquals(at(`ab${ESC}`), 2, "a lone escape");
  assertEquals(at(`a${ESC}]2;title`), 1, "an unfinished OSC");
  assertEquals(at(`a${ESC}]2;title\x07b`), 12, "an OSC ended by BEL");
  assertEquals(at(`a${ESC}]2;title${ESC}\\b`), 13, "an OSC ended by ST");
  assertEquals(at(`a${ESC}]2;title${ESC}`), 1, "an OSC whose terminator is cut");
  assertEquals(at(`a${ESC}]2;t${ESC}[3`), 6, "an escape that ends an OSC starts a sequence");
  assertEquals(at(`${ESC}Pq#0;2;0;0;0`), 0, "a DCS string");
  assertEquals(at(`${ESC}[3\x18x`), 5, "CAN cancels a sequence");
  assertEquals(at(`${ESC}(0x`), 4, "a charset designation");
  const e = encoder.encode("aé");
  assertEquals(at(e.subarray(0, 2)), 1, "a cut two-byte character");
  assertEquals(at(e), 3);
  const han = encoder.encode("中x");
  assertEquals(at(han.subarray(0, 2)), 0, "a cut three-byte character");
  assertEquals(at(new Uint8Array([0xe4, 0x41])), 2, "a broken character is text");
});
