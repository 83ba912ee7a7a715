/**
 * A screen put to sleep and woken is the screen it was: against a twin that
 * never slept and got the same output, every capture, redraw, saved state,
 * history take and view is the same, before and after more output. What
 * listings and agent rules read of a sleeping screen does not wake it.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { DEFLATE } from "../../../lib/daemon/screens/screen_sleeper.ts";

const ESC = "\x1b";
const encoder = new TextEncoder();

function screen(cols: number, rows: number, respond: (answer: string) => void = () => {}): Screen {
  return new Screen(cols, rows, { scrollback: 2000, respond });
}

function write(s: Screen, text: string): void {
  s.writeSync(encoder.encode(text));
}

/** Everything observable of a screen, for comparing two. */
function picture(s: Screen) {
  return {
    lines: s.capture({ ansi: true, scrollback: 5000 }),
    snapshot: s.snapshot({ scrollback: 10 }),
    redraw: s.redraw({ scrollback: 5000 }),
    serialized: s.serialize({ scrollback: 5000 }),
    view: s.view(),
    flags: [s.title, s.bells, s.alternate, s.bracketedPaste, s.applicationCursorKeys, s.progress],
    state: s.saveState(),
  };
}

/** Writes `before` into a screen and its twin, sleeps the screen, writes `after` into both. */
function sleepAndCompare(cols: number, rows: number, before: string, after: string): Screen {
  const sleeper = screen(cols, rows);
  const twin = screen(cols, rows);
  write(sleeper, before);
  write(twin, before);
  const awake = picture(twin);
  assert(sleeper.sleep(), "the screen falls asleep");
  assert(sleeper.asleep);
  assertEquals(sleeper.view(), awake.view, "the view is read asleep");
  assertEquals(sleeper.saveState(), awake.state, "the state is read asleep");
  assertEquals(sleeper.title, twin.title);
  assertEquals(sleeper.wakes, 0, "nothing above woke it");
  assertEquals(picture(sleeper), awake, "woken, it is what it was");
  assertEquals(sleeper.wakes, 1);
  write(sleeper, after);
  write(twin, after);
  assertEquals(picture(sleeper), picture(twin), "after more output");
  twin.dispose();
  return sleeper;
}

Deno.test("screen sleep: history, colours, the pen and the title", () => {
  let before = `${ESC}]2;a title${ESC}\\`;
  for (let i = 0; i < 500; i++) before += `${ESC}[3${i % 8}mline ${i}${ESC}[0m of the history\r\n`;
  before += `${ESC}[1;4;38;2;10;200;30m`;
  const s = sleepAndCompare(80, 24, before, "styled\r\n$ ");
  assert(s.capture({ scrollback: 5000 }).includes("line 0 of the history\n"));
  s.dispose();
});

Deno.test("screen sleep: a full-screen program's alternate screen, modes and region", () => {
  const before = "shell output\r\n$ vim\r\n" +
    `${ESC}[?1049h${ESC}[?1h${ESC}=${ESC}[?2004h${ESC}[?1002h${ESC}[?1006h` +
    `${ESC}[?25l${ESC}[2;9r${ESC}[1;1Hfirst${ESC}[3;4H${ESC}[7mreverse`;
  const after =
    `\r\nmore\n\n\n\n\n\n\n\n\nin the region${ESC}[r${ESC}[10;1Hbottom${ESC}[?1049lback`;
  sleepAndCompare(30, 10, before, after).dispose();
});

Deno.test("screen sleep: the saved cursor, character sets, tab stops and a pending wrap", () => {
  sleepAndCompare(
    20,
    6,
    `${ESC}[4;7H${ESC}[31m${ESC}7${ESC}[0m${ESC}[1;1H${ESC}(0lqk${ESC}[3g${ESC}[1;5H${ESC}H` +
      "x".repeat(15),
    `${ESC}8after${ESC}[2;1H\ttab${"y".repeat(30)}`,
  ).dispose();
});

Deno.test("screen sleep: the history's next take goes on from where the last one ended", () => {
  const sleeper = screen(40, 5);
  const twin = screen(40, 5);
  const both = (text: string) => (write(sleeper, text), write(twin, text));
  both(Array.from({ length: 30 }, (_, i) => `first ${i}\r\n`).join(""));
  assertEquals(sleeper.takeHistory(), twin.takeHistory());
  both(Array.from({ length: 7 }, (_, i) => `second ${i}\r\n`).join(""));
  assert(sleeper.sleep());
  both("third\r\n");
  const take = sleeper.takeHistory();
  assertEquals(take, twin.takeHistory());
  assert(!take.reset && take.lines === 8, `only what scrolled up since: ${JSON.stringify(take)}`);
  // A screen that slept before any take starts over at its first take, as its twin does.
  const fresh = screen(40, 5);
  write(fresh, "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\n");
  assert(fresh.sleep());
  assertEquals(fresh.takeHistory().reset, true);
  for (const s of [sleeper, twin, fresh]) s.dispose();
});

Deno.test("screen sleep: rows an earlier process left still read blank to agent rules", () => {
  const sleeper = screen(40, 6);
  write(sleeper, "old agent's busy line\r\nold input box\r\n");
  sleeper.markOldAbove();
  write(sleeper, "$ ");
  const view = sleeper.view();
  assertEquals(view.rows[0].text, "", "marked old before the sleep");
  assert(sleeper.sleep());
  write(sleeper, "x");
  assertEquals(sleeper.view().rows.slice(0, 2), view.rows.slice(0, 2), "still old after the wake");
  assertEquals(sleeper.view().rows[2].text, "$ x");
  sleeper.dispose();
});

Deno.test("screen sleep: bells, titles and query answers go on after a wake", () => {
  const answers: string[] = [];
  const titles: string[] = [];
  let bells = 0;
  const s = screen(40, 6, (answer) => answers.push(answer));
  s.onTitle((title) => titles.push(title));
  s.onBell(() => bells++);
  write(s, `\x07${ESC}]2;before${ESC}\\`);
  assert(s.sleep());
  assertEquals(s.bells, 1);
  write(s, `\x07${ESC}]2;after${ESC}\\${ESC}[6n`);
  assertEquals([bells, s.bells], [2, 2]);
  assertEquals(titles, ["before", "after"], "the wake tells no title of its own");
  assertEquals(answers, [`${ESC}[1;1R`]);
  s.dispose();
});

Deno.test("screen sleep: output that stopped inside a sequence keeps the screen awake", () => {
  const cases: [Uint8Array, Uint8Array][] = [
    [encoder.encode(`${ESC}[3`), encoder.encode("m")],
    [encoder.encode(`${ESC}]2;half a ti`), encoder.encode(`tle${ESC}\\`)],
    [new Uint8Array([0xe2, 0x94]), new Uint8Array([0x80])],
  ];
  for (const [start, end] of cases) {
    const s = screen(40, 6);
    s.writeSync(start);
    assert(!s.sleep(), `awake after ${JSON.stringify([...start])}`);
    s.writeSync(end);
    assert(s.sleep(), `and sleeps once the sequence ended: ${JSON.stringify([...end])}`);
    s.dispose();
  }
});

Deno.test("screen sleep: a resize wakes it and reflows as the twin does", () => {
  const before = Array.from({ length: 50 }, (_, i) => `${"word ".repeat(i % 12)}${i}`)
    .join("\r\n");
  const sleeper = screen(60, 10);
  const twin = screen(60, 10);
  write(sleeper, before);
  write(twin, before);
  assert(sleeper.sleep());
  sleeper.resize(25, 8);
  twin.resize(25, 8);
  assertEquals(picture(sleeper), picture(twin));
  sleeper.dispose();
  twin.dispose();
});

Deno.test("screen sleep: a state packed while asleep (skiffd deflates it) wakes the same", () => {
  let history = "";
  for (let i = 0; i < 500; i++) history += `${ESC}[34mdrwxr-xr-x${ESC}[0m panel_${i}.ts\r\n`;
  const sleeper = screen(120, 40);
  const twin = screen(120, 40);
  write(sleeper, history + "$ ");
  write(twin, history + "$ ");
  let packed = 0;
  let plain = 0;
  assert(sleeper.sleep({
    pack: (bytes) => {
      plain = bytes.length;
      const out = DEFLATE.pack(bytes);
      packed = out.length;
      return out;
    },
    unpack: DEFLATE.unpack,
  }));
  assert(packed > 0 && packed * 5 < plain, `deflated ${plain} bytes to ${packed}`);
  assertEquals(sleeper.saveState(), twin.saveState(), "read asleep through the packer");
  assertEquals(picture(sleeper), picture(twin));
  sleeper.dispose();
  twin.dispose();
});

Deno.test("screen sleep: a screen built later (a restore's) is the one the prelude would have drawn at once", () => {
  let prelude = "";
  for (let i = 0; i < 300; i++) prelude += `${ESC}[32mold ${i}${ESC}[0m\r\n`;
  prelude += "── restarted here ──\r\n";
  const later = Screen.unborn(80, 24, prelude, { scrollback: 2000, respond: () => {} });
  let woke = 0;
  later.onWake(() => woke++);
  const now = screen(80, 24);
  write(now, prelude);
  now.markOldAbove();
  assert(later.asleep);
  assertEquals(later.view().rows.every((row) => row.text === ""), true, "old rows read blank");
  assertEquals(later.title, "");
  assertEquals(woke, 0);
  write(later, "$ ");
  write(now, "$ ");
  assertEquals(woke, 1);
  assertEquals(picture(later), picture(now));
  later.dispose();
  now.dispose();
});

Deno.test("screen sleep: a lazy prelude is written only when the screen is first used, and draws the same", () => {
  let prelude = "";
  for (let i = 0; i < 300; i++) prelude += `${ESC}[3${i % 8}mold ${i}${ESC}[0m\r\n`;
  prelude += "── restarted here ──\r\n";
  let written = 0;
  const lazy = { lines: 301 + 48, text: () => (written++, prelude) };
  const later = Screen.unborn(80, 24, lazy, { scrollback: 2000, respond: () => {} });
  const now = screen(80, 24);
  write(now, prelude);
  now.markOldAbove();
  assertEquals(written, 0, "not written at the start");
  assert(later.asleep);
  assertEquals(later.view().rows.every((row) => row.text === ""), true, "old rows read blank");
  // Saved while unborn (as a handoff does), it is the state the prelude draws.
  assertEquals(later.saveState().vt, prelude);
  write(later, "$ ");
  write(now, "$ ");
  assertEquals(picture(later), picture(now));
  assertEquals(
    later.saveState().history,
    now.saveState().history,
    "the same history: the room it was given did not add lines",
  );
  later.dispose();
  now.dispose();
});

Deno.test("screen sleep: the history's length reads the same awake and asleep", () => {
  const s = screen(80, 24);
  for (let i = 0; i < 100; i++) write(s, `line ${i}\r\n`);
  // 100 lines and the cursor's empty one: 101 rows, 24 on the screen.
  assertEquals(s.historyLines, 77);
  assert(s.sleep());
  assertEquals(s.historyLines, 77);
  s.dispose();
});
