import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { paletteColor } from "../../../lib/screen/palette.ts";
import { VERSION } from "../../../lib/version.ts";

const ESC = "\x1b";
const ST = `${ESC}\\`;
const encoder = new TextEncoder();

interface Harness {
  screen: Screen;
  answers: string[];
  write(text: string): Promise<void>;
  [Symbol.dispose](): void;
}

function make(cols = 40, rows = 6, scrollback = 100): Harness {
  const answers: string[] = [];
  const screen = new Screen(cols, rows, { scrollback, respond: (a) => answers.push(a) });
  return {
    screen,
    answers,
    write: (text) => new Promise<void>((resolve) => screen.write(encoder.encode(text), resolve)),
    [Symbol.dispose]: () => screen.dispose(),
  };
}

Deno.test("Screen: write then capture plain text", async () => {
  using h = make();
  await h.write("hello\r\n  world\r\n\r\n");
  assertEquals(h.screen.capture(), "hello\n  world");
  assertEquals(h.screen.visibleLines(), ["hello", "  world", "", "", "", ""]);
  assertEquals(h.screen.lines(), ["hello", "  world", "", "", "", ""]);
  await h.write(`${ESC}[2J${ESC}[Hnew`);
  assertEquals(h.screen.capture(), "new");
});

Deno.test({
  name: "Screen: capture removes trailing blanks the program wrote",
  async fn() {
    using h = make();
    await h.write("  world   \r\n> \r\n");
    assertEquals(h.screen.capture(), "  world\n>");
    assertEquals(h.screen.visibleLines().slice(0, 2), ["  world", ">"]);
    assertEquals(h.screen.capture(), h.screen.capture({ ansi: true }));
  },
});

Deno.test("Screen: wide characters and overwrite", async () => {
  using h = make();
  await h.write("世界 ok\r\nabcdef\rXY");
  assertEquals(h.screen.capture(), "世界 ok\nXYcdef");
});

Deno.test("Screen: capture with ansi keeps styles as SGR codes", async () => {
  using h = make(60, 16);
  // Each row ends in a plain '|', so the style always returns to default on a character.
  const R = `${ESC}[0m|`;
  const cases: [string, string][] = [
    [`${ESC}[1mbold`, `${ESC}[0;1mbold${R}`],
    [`${ESC}[2mdim`, `${ESC}[0;2mdim${R}`],
    [`${ESC}[3mi${ESC}[23m ${ESC}[4mu`, `${ESC}[0;3mi${ESC}[0m ${ESC}[0;4mu${R}`],
    [`${ESC}[5mblink${ESC}[25;8mhidden`, `${ESC}[0;5mblink${ESC}[0;8mhidden${R}`],
    [`${ESC}[7mrev${ESC}[0m ${ESC}[9mstrike`, `${ESC}[0;7mrev${ESC}[0m ${ESC}[0;9mstrike${R}`],
    [`${ESC}[31mred${ESC}[42mgreen-bg`, `${ESC}[0;31mred${ESC}[0;31;42mgreen-bg${R}`],
    [`${ESC}[91mbright${ESC}[39;104mbg`, `${ESC}[0;91mbright${ESC}[0;104mbg${R}`],
    [`${ESC}[38;5;208mo${ESC}[48;5;17mn`, `${ESC}[0;38;5;208mo${ESC}[0;38;5;208;48;5;17mn${R}`],
    [`${ESC}[38;5;1mlow${ESC}[48;5;12mx`, `${ESC}[0;31mlow${ESC}[0;31;104mx${R}`],
    [`${ESC}[38;5;9mhigh`, `${ESC}[0;91mhigh${R}`],
    [
      `${ESC}[38;2;1;2;3mt${ESC}[48;2;255;128;0mc`,
      `${ESC}[0;38;2;1;2;3mt${ESC}[0;38;2;1;2;3;48;2;255;128;0mc${R}`,
    ],
    [`${ESC}[1;31mab${ESC}[0m cd`, `${ESC}[0;1;31mab${ESC}[0m cd|`],
    [`${ESC}[41m  ${ESC}[0mx`, `${ESC}[0;41m  ${ESC}[0mx|`],
    [`${ESC}[1m世界`, `${ESC}[0;1m世界${R}`],
  ];
  await h.write(cases.map(([input]) => `${input}${ESC}[0m|`).join("\r\n") + "\r\nplain");
  const lines = h.screen.capture({ ansi: true }).split("\n");
  cases.forEach(([input, expected], i) => {
    assertEquals(lines[i], expected, JSON.stringify(input));
  });
  assertEquals(lines[cases.length], "plain");
  // Without ansi the same screen is plain text.
  assertEquals(h.screen.capture().split("\n")[5], "redgreen-bg|");
});

Deno.test("Screen: capture with ansi ends a row that ends styled with a reset", async () => {
  using h = make(4, 2);
  await h.write(`${ESC}[32mgogo${ESC}[0m`);
  assertEquals(h.screen.capture({ ansi: true }), `${ESC}[0;32mgogo${ESC}[0m`);
});

Deno.test({
  name: "Screen: capture with ansi drops default blanks after a styled run",
  async fn() {
    using h = make();
    await h.write(`${ESC}[1mA${ESC}[0m\r\n${ESC}[41m  ${ESC}[0m\r\n${ESC}[32mgo`);
    assertEquals(
      h.screen.capture({ ansi: true }),
      `${ESC}[0;1mA${ESC}[0m\n${ESC}[0;41m  ${ESC}[0m\n${ESC}[0;32mgo${ESC}[0m`,
    );
  },
});

async function numbered(h: Harness, count: number): Promise<void> {
  const lines = Array.from({ length: count }, (_, i) => `line ${i + 1}`);
  await h.write(lines.join("\r\n"));
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join("\n");

Deno.test("Screen: capture's scrollback option adds history lines above", async () => {
  using h = make(20, 5, 100);
  await numbered(h, 12);
  assertEquals(h.screen.capture(), range(8, 12));
  assertEquals(h.screen.capture({ scrollback: 0 }), range(8, 12));
  assertEquals(h.screen.capture({ scrollback: 3 }), range(5, 12));
  assertEquals(h.screen.capture({ scrollback: 1000 }), range(1, 12));
  assertEquals(h.screen.lines({ scrollback: 2 }).length, 7);
});

Deno.test("Screen: the scrollback setting caps the history kept", async () => {
  using h = make(20, 5, 2);
  await numbered(h, 12);
  assertEquals(h.screen.capture({ scrollback: 1000 }), range(6, 12));
});

Deno.test("Screen: snapshot fields", async () => {
  using h = make(30, 4);
  let snap = h.screen.snapshot();
  assertEquals(snap, {
    cols: 30,
    rows: 4,
    cursor: { x: 0, y: 0, visible: true },
    title: "",
    alternate: false,
    bracketed_paste: false,
    lines: ["", "", "", ""],
  });
  await h.write(`ab\r\ncde${ESC}]2;my title${ST}${ESC}[?2004h${ESC}[?25l`);
  snap = h.screen.snapshot();
  assertEquals(snap.cursor, { x: 3, y: 1, visible: false });
  assertEquals(snap.title, "my title");
  assertEquals(snap.bracketed_paste, true);
  assertEquals(snap.alternate, false);
  assertEquals(snap.lines, ["ab", "cde", "", ""]);
  await h.write(`${ESC}[?1049h${ESC}[H${ESC}[31mfull${ESC}[0m|${ESC}[?25h`);
  snap = h.screen.snapshot({ ansi: true });
  assertEquals(snap.alternate, true);
  assertEquals(snap.cursor, { x: 5, y: 0, visible: true });
  assertEquals(snap.lines, [`${ESC}[0;31mfull${ESC}[0m|`, "", "", ""]);
  h.screen.resize(50, 3);
  snap = h.screen.snapshot();
  assertEquals([snap.cols, snap.rows, snap.lines.length], [50, 3, 3]);
  assertEquals([h.screen.cols, h.screen.rows], [50, 3]);
});

Deno.test("Screen: modes", async () => {
  using h = make();
  assertEquals(h.screen.applicationCursorKeys, false);
  assertEquals(h.screen.bracketedPaste, false);
  await h.write(`${ESC}[?1h${ESC}[?2004h`);
  assertEquals(h.screen.applicationCursorKeys, true);
  assertEquals(h.screen.bracketedPaste, true);
  await h.write(`${ESC}[?1l${ESC}[?2004l`);
  assertEquals(h.screen.applicationCursorKeys, false);
  assertEquals(h.screen.bracketedPaste, false);
});

Deno.test("Screen: title and bell handlers", async () => {
  using h = make();
  const titles: string[] = [];
  let rung = 0;
  h.screen.onTitle((t) => titles.push(t));
  h.screen.onBell(() => rung++);
  await h.write(`${ESC}]0;first\x07text\x07${ESC}]2;second${ST}\x07`);
  assertEquals(titles, ["first", "second"]);
  assertEquals(h.screen.title, "second");
  assertEquals(rung, 2);
  assertEquals(h.screen.bells, 2);
  assertEquals(h.screen.capture(), "text");
});

Deno.test("Screen: answers DA1 and CPR", async () => {
  using h = make();
  await h.write(`${ESC}[c`);
  assertEquals(h.answers.length, 1);
  assertMatch(h.answers[0], /^\x1b\[\?[\d;]+c$/);
  h.answers.length = 0;
  await h.write(`${ESC}[3;5H${ESC}[6n`);
  assertEquals(h.answers, [`${ESC}[3;5R`]);
});

Deno.test("Screen: answers XTVERSION with skiff's version", async () => {
  using h = make();
  await h.write(`${ESC}[>q`);
  assertEquals(h.answers, [`${ESC}P>|skiff(${VERSION})${ST}`]);
});

Deno.test("Screen: answers OSC 10, 11 and 12 colour queries, not colour sets", async () => {
  using h = make();
  await h.write(`${ESC}]10;?\x07${ESC}]11;?${ST}${ESC}]12;?\x07`);
  assertEquals(h.answers, [
    `${ESC}]10;rgb:e5e5/e5e5/e5e5${ST}`,
    `${ESC}]11;rgb:0000/0000/0000${ST}`,
    `${ESC}]12;rgb:e5e5/e5e5/e5e5${ST}`,
  ]);
  h.answers.length = 0;
  await h.write(`${ESC}]11;rgb:1111/2222/3333${ST}`);
  assertEquals(h.answers, []);
});

Deno.test("Screen: answers OSC 4 palette queries from 0 to 255 only", async () => {
  using h = make();
  await h.write(`${ESC}]4;1;?\x07${ESC}]4;208;?${ST}`);
  assertEquals(h.answers, [
    `${ESC}]4;1;${paletteColor(1)}${ST}`,
    `${ESC}]4;208;${paletteColor(208)}${ST}`,
  ]);
  h.answers.length = 0;
  await h.write(`${ESC}]4;256;?\x07${ESC}]4;x;?\x07${ESC}]4;1;rgb:ff/00/00\x07`);
  assertEquals(h.answers, []);
});

Deno.test("Screen: answers XTGETTCAP with 'not known'", async () => {
  using h = make();
  await h.write(`${ESC}P+q544e${ST}`);
  assertEquals(h.answers, [`${ESC}P0+r${ST}`]);
});

Deno.test("Screen: plain output gets no answers", async () => {
  using h = make();
  await h.write(`hi ${ESC}[1;31mred${ESC}[0m ${ESC}]0;t\x07${ESC}[?1049h`);
  assertEquals(h.answers, []);
});

Deno.test("Screen: serialize replayed into a second screen reproduces it", async () => {
  using a = make(30, 5);
  await a.write(`normal ${ESC}[1mbold${ESC}[0m\r\n${ESC}[32mgreen${ESC}[0m`);
  await a.write(`${ESC}[?1049h${ESC}[H${ESC}[2Jalt ${ESC}[44mscreen${ESC}[0m\r\nrow2`);
  await a.write(`${ESC}[?2004h${ESC}[?1h`);
  using b = make(30, 5);
  await b.write(a.screen.serialize());
  assertEquals(b.screen.alternate, true);
  assertEquals(b.screen.capture(), "alt screen\nrow2");
  assertEquals(b.screen.capture({ ansi: true }), a.screen.capture({ ansi: true }));
  assertEquals(b.screen.snapshot().cursor, a.screen.snapshot().cursor);
  assertEquals(b.screen.bracketedPaste, true);
  assertEquals(b.screen.applicationCursorKeys, true);
  // Leaving the alternate screen shows the same normal screen on both.
  await a.write(`${ESC}[?1049l`);
  await b.write(`${ESC}[?1049l`);
  assertEquals(b.screen.alternate, false);
  assertEquals(b.screen.capture({ ansi: true }), a.screen.capture({ ansi: true }));
  assert(b.screen.capture().startsWith("normal bold\ngreen"), b.screen.capture());
});

Deno.test("Screen: serialize of a normal screen replays without the alternate screen", async () => {
  using a = make(30, 5);
  await a.write(`one\r\n${ESC}[7mtwo${ESC}[0m\r\n   three`);
  using b = make(30, 5);
  await b.write(a.screen.serialize());
  assertEquals(b.screen.alternate, false);
  assertEquals(b.screen.capture(), "one\ntwo\n   three");
  assertEquals(b.screen.capture({ ansi: true }), a.screen.capture({ ansi: true }));
  assertEquals(b.screen.snapshot().cursor, a.screen.snapshot().cursor);
});
