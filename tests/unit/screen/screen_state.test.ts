/**
 * A screen saved and rebuilt elsewhere behaves as the original: after the
 * same further output, both show the same cells, history, cursor and modes.
 * Each case ends with output that depends on state no redraw shows (the pen,
 * the saved cursor, the scroll region, character sets, tab stops, a pending
 * wrap), so a state left out makes the two differ.
 */

import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { isScreenState } from "../../../lib/screen/screen_state.ts";

const ESC = "\x1b";
const encoder = new TextEncoder();

function screen(cols: number, rows: number): Screen {
  return new Screen(cols, rows, { scrollback: 2000, respond: () => {} });
}

/** Everything observable of a screen, for comparing two. */
function picture(s: Screen) {
  return {
    lines: s.capture({ ansi: true, scrollback: 5000 }),
    snapshot: s.snapshot({ scrollback: 0 }),
    cursorKeys: s.applicationCursorKeys,
    serialized: s.serialize({ scrollback: 5000 }),
    state: s.saveState(),
  };
}

/** Writes `before` into a screen, rebuilds it in another, writes `after` into both, compares. */
function roundTrip(cols: number, rows: number, before: string, after: string): Screen {
  const original = screen(cols, rows);
  original.writeSync(encoder.encode(before));
  const state = JSON.parse(JSON.stringify(original.saveState()));
  assert(isScreenState(state));
  const copy = screen(cols, rows);
  copy.restoreState(state);
  assertEquals(picture(copy), picture(original), "right after the rebuild");
  original.writeSync(encoder.encode(after));
  copy.writeSync(encoder.encode(after));
  assertEquals(picture(copy), picture(original), "after more output");
  original.dispose();
  return copy;
}

Deno.test("screen state: history, colours and the pen the next text gets", () => {
  let before = "";
  for (let i = 0; i < 300; i++) before += `${ESC}[3${i % 8}mline ${i}${ESC}[0m\r\n`;
  before += `${ESC}[1;4;38;2;10;200;30;48;5;200m`;
  const copy = roundTrip(40, 8, before, "styled text\r\n$ ");
  assert(copy.capture({ scrollback: 5000 }).includes("line 0\n"), "the oldest line is kept");
  assert(copy.capture({ ansi: true }).includes("38;2;10;200;30"), "the pen is kept");
  copy.dispose();
});

Deno.test("screen state: a full-screen program's alternate screen, region, modes and title", () => {
  const before = "shell output\r\n$ vim\r\n" +
    `${ESC}]2;vim file${ESC}\\` +
    `${ESC}[?1049h${ESC}[?1h${ESC}=${ESC}[?2004h${ESC}[?1002h${ESC}[?1006h${ESC}[?1004h` +
    `${ESC}[?25l${ESC}[5 q${ESC}[2;9r${ESC}[?6h` +
    `${ESC}[1;1Hfirst${ESC}[3;4H${ESC}[7mreverse`;
  const after = `\r\nmore\n\n\n\n\n\n\n\n\nscrolled in the region` +
    `${ESC}[?6l${ESC}[r${ESC}[10;1Hbottom${ESC}[?1049lback`;
  const copy = roundTrip(30, 10, before, after);
  assertEquals(copy.title, "vim file");
  copy.dispose();
  // Before the program leaves, every mode is there.
  const vim = roundTrip(30, 10, before, "");
  assert(vim.alternate && vim.bracketedPaste && vim.applicationCursorKeys);
  assert(vim.saveState().vt.includes(`${ESC}[?1006h`), "mouse reports stay SGR");
  assert(vim.saveState().vt.includes(`${ESC}[?25l`), "the cursor stays hidden");
  vim.dispose();
});

Deno.test("screen state: the saved cursor comes back with its place and pen", () => {
  const copy = roundTrip(
    30,
    6,
    `${ESC}[4;7H${ESC}[31m${ESC}7${ESC}[0m${ESC}[1;1Helsewhere`,
    `${ESC}8X`,
  );
  assertEquals(copy.capture().split("\n")[3], "      X");
  copy.dispose();
});

Deno.test("screen state: character sets, tab stops and a pending wrap", () => {
  roundTrip(20, 4, `${ESC})0${ESC}(0lqqk`, "lqk\x0exq\x0fx").dispose();
  roundTrip(30, 4, `${ESC}[3g${ESC}[1;6H${ESC}H${ESC}[1;21H${ESC}H${ESC}[2;1H`, "\tA\tB")
    .dispose();
  const wrap = roundTrip(10, 4, "0123456789", "Z");
  assertEquals(wrap.capture().split("\n").slice(0, 2), ["0123456789", "Z"]);
  wrap.dispose();
});

Deno.test("screen state: wrapped lines still reflow as one after a resize", () => {
  const original = screen(20, 5);
  original.writeSync(encoder.encode("a".repeat(50) + "\r\nshort\r\n"));
  const copy = screen(20, 5);
  copy.restoreState(original.saveState());
  original.resize(60, 5);
  copy.resize(60, 5);
  assertEquals(copy.capture({ scrollback: 100 }), original.capture({ scrollback: 100 }));
  assert(copy.capture().includes("a".repeat(50)));
  original.dispose();
  copy.dispose();
});

Deno.test("screen state: a history of plain and styled lines, and a line wrapped onto the screen", () => {
  let history = "";
  for (let i = 0; i < 40; i++) {
    history += i % 3 === 0
      ? `${ESC}[32mgreen ${i}${ESC}[0m\r\n`
      : `plain ${i}  ${ESC}[3Cgap 漢\r\n`;
  }
  // Plain lines are written apart from the serializer's runs: the two must join.
  roundTrip(20, 5, history, "more\r\n").dispose();
  // A line that wraps from the history onto the visible screen stays one line.
  const long = history + "b".repeat(130) + "\r\nend";
  roundTrip(20, 5, long, "c").dispose();
  // Not the cursor's line, which xterm does not reflow.
  const original = screen(20, 5);
  original.writeSync(encoder.encode(long));
  const copy = screen(20, 5);
  copy.restoreState(original.saveState());
  original.resize(100, 5);
  copy.resize(100, 5);
  assertEquals(copy.capture({ scrollback: 100 }), original.capture({ scrollback: 100 }));
  assert(copy.capture({ scrollback: 100 }).includes("b".repeat(100)));
  original.dispose();
  copy.dispose();
});

Deno.test("screen state: a screen of another size, or a state of another format, is refused", () => {
  const original = screen(20, 5);
  const state = original.saveState();
  const other = screen(21, 5);
  assertThrows(() => other.restoreState(state), /20x5 cannot be rebuilt on 21x5/);
  assert(!isScreenState({ ...state, version: 99 }));
  assert(!isScreenState({ ...state, vt: 1 }));
  original.dispose();
  other.dispose();
});
