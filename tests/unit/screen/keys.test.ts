import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { checkKeyWords, encodeKeys, keyBytes } from "../../../lib/screen/keys.ts";
import { SkiffError } from "../../../lib/errors.ts";

const NORMAL = { applicationCursorKeys: false };
const APP = { applicationCursorKeys: true };
const ESC = "\x1b";

Deno.test("keyBytes: every simple named key, case-insensitive", () => {
  const expected: Record<string, string> = {
    Enter: "\r",
    Return: "\r",
    Tab: "\t",
    BTab: `${ESC}[Z`,
    Escape: ESC,
    Esc: ESC,
    Backspace: "\x7f",
    BSpace: "\x7f",
    Space: " ",
    PageUp: `${ESC}[5~`,
    PPage: `${ESC}[5~`,
    PageDown: `${ESC}[6~`,
    NPage: `${ESC}[6~`,
    Insert: `${ESC}[2~`,
    IC: `${ESC}[2~`,
    Delete: `${ESC}[3~`,
    DC: `${ESC}[3~`,
  };
  for (const [name, bytes] of Object.entries(expected)) {
    assertEquals(keyBytes(name, NORMAL), bytes, name);
    assertEquals(keyBytes(name.toLowerCase(), NORMAL), bytes, name.toLowerCase());
    assertEquals(keyBytes(name.toUpperCase(), NORMAL), bytes, name.toUpperCase());
    // Application cursor mode changes none of these.
    assertEquals(keyBytes(name, APP), bytes, `${name} in application mode`);
  }
});

Deno.test("keyBytes: cursor keys in normal and application cursor mode", () => {
  const finals: Record<string, string> = {
    Up: "A",
    Down: "B",
    Right: "C",
    Left: "D",
    Home: "H",
    End: "F",
  };
  for (const [name, final] of Object.entries(finals)) {
    assertEquals(keyBytes(name, NORMAL), `${ESC}[${final}`, name);
    assertEquals(keyBytes(name, APP), `${ESC}O${final}`, `${name} in application mode`);
  }
});

Deno.test("keyBytes: modified cursor keys use the xterm modifier parameter in both modes", () => {
  const cases: [string, string][] = [
    ["S-Up", `${ESC}[1;2A`],
    ["M-Down", `${ESC}[1;3B`],
    ["A-Down", `${ESC}[1;3B`],
    ["C-Right", `${ESC}[1;5C`],
    ["C-S-Left", `${ESC}[1;6D`],
    ["C-M-Home", `${ESC}[1;7H`],
    ["C-M-S-End", `${ESC}[1;8F`],
  ];
  for (const [name, bytes] of cases) {
    assertEquals(keyBytes(name, NORMAL), bytes, name);
    assertEquals(keyBytes(name, APP), bytes, `${name} in application mode`);
  }
});

Deno.test("keyBytes: F1–F12 without modifiers", () => {
  const expected = [
    `${ESC}OP`,
    `${ESC}OQ`,
    `${ESC}OR`,
    `${ESC}OS`,
    `${ESC}[15~`,
    `${ESC}[17~`,
    `${ESC}[18~`,
    `${ESC}[19~`,
    `${ESC}[20~`,
    `${ESC}[21~`,
    `${ESC}[23~`,
    `${ESC}[24~`,
  ];
  expected.forEach((bytes, i) => {
    assertEquals(keyBytes(`F${i + 1}`, NORMAL), bytes, `F${i + 1}`);
    assertEquals(keyBytes(`f${i + 1}`, APP), bytes, `f${i + 1}`);
  });
});

Deno.test("keyBytes: F1–F12 with modifiers", () => {
  assertEquals(keyBytes("S-F1", NORMAL), `${ESC}[1;2P`);
  assertEquals(keyBytes("C-F2", NORMAL), `${ESC}[1;5Q`);
  assertEquals(keyBytes("M-F3", NORMAL), `${ESC}[1;3R`);
  assertEquals(keyBytes("C-S-F4", NORMAL), `${ESC}[1;6S`);
  assertEquals(keyBytes("S-F5", NORMAL), `${ESC}[15;2~`);
  assertEquals(keyBytes("C-F8", NORMAL), `${ESC}[19;5~`);
  assertEquals(keyBytes("M-F10", NORMAL), `${ESC}[21;3~`);
  assertEquals(keyBytes("C-M-S-F12", NORMAL), `${ESC}[24;8~`);
});

Deno.test("keyBytes: F0 and F13 are not keys", () => {
  assertEquals(keyBytes("F0", NORMAL), undefined);
  assertEquals(keyBytes("F13", NORMAL), undefined);
  assertEquals(keyBytes("F123", NORMAL), undefined);
});

Deno.test("keyBytes: control characters", () => {
  assertEquals(keyBytes("C-a", NORMAL), "\x01");
  assertEquals(keyBytes("C-c", NORMAL), "\x03");
  assertEquals(keyBytes("C-C", NORMAL), "\x03");
  assertEquals(keyBytes("C-z", NORMAL), "\x1a");
  assertEquals(keyBytes("C-@", NORMAL), "\x00");
  assertEquals(keyBytes("C-[", NORMAL), ESC);
  assertEquals(keyBytes("C-\\", NORMAL), "\x1c");
  assertEquals(keyBytes("C-]", NORMAL), "\x1d");
  assertEquals(keyBytes("C-^", NORMAL), "\x1e");
  assertEquals(keyBytes("C-_", NORMAL), "\x1f");
  assertEquals(keyBytes("C-?", NORMAL), "\x7f");
  assertEquals(keyBytes("c-d", NORMAL), "\x04", "lower-case modifier");
  assertEquals(keyBytes("C-1", NORMAL), undefined);
  assertEquals(keyBytes("C-ab", NORMAL), undefined);
});

Deno.test({
  name: "keyBytes: C-Space is NUL",
  fn() {
    assertEquals(keyBytes("C-Space", NORMAL), "\x00");
    assertEquals(keyBytes("C-M-Space", NORMAL), `${ESC}\x00`);
  },
});

Deno.test("keyBytes: meta prefixes ESC; shift upper-cases a letter", () => {
  assertEquals(keyBytes("M-x", NORMAL), `${ESC}x`);
  assertEquals(keyBytes("A-x", NORMAL), `${ESC}x`);
  assertEquals(keyBytes("M-X", NORMAL), `${ESC}X`);
  assertEquals(keyBytes("M-S-x", NORMAL), `${ESC}X`);
  assertEquals(keyBytes("S-x", NORMAL), "X");
  assertEquals(keyBytes("C-M-c", NORMAL), `${ESC}\x03`);
  assertEquals(keyBytes("M-Enter", NORMAL), `${ESC}\r`);
  assertEquals(keyBytes("M-Space", NORMAL), `${ESC} `);
  assertEquals(keyBytes("M-Escape", NORMAL), `${ESC}${ESC}`);
  assertEquals(keyBytes("M-é", NORMAL), `${ESC}é`);
});

Deno.test("keyBytes: modifiers on tilde keys and Tab", () => {
  assertEquals(keyBytes("S-Tab", NORMAL), `${ESC}[Z`);
  assertEquals(keyBytes("C-PageUp", NORMAL), `${ESC}[5;5~`);
  assertEquals(keyBytes("S-PageDown", NORMAL), `${ESC}[6;2~`);
  assertEquals(keyBytes("C-S-Delete", NORMAL), `${ESC}[3;6~`);
  assertEquals(keyBytes("C-Insert", APP), `${ESC}[2;5~`);
  // Meta on a tilde key goes in its parameter, as xterm sends it.
  assertEquals(keyBytes("M-Delete", NORMAL), `${ESC}[3;3~`);
  // Modifiers that have no encoding for a key leave it as it is.
  assertEquals(keyBytes("S-Enter", NORMAL), "\r");
});

Deno.test({
  name: "keyBytes: Ctrl survives together with Meta on tilde keys",
  fn() {
    // Either encoding keeps Ctrl: xterm's parameter form, or ESC + the Ctrl form.
    const bytes = keyBytes("C-M-PageUp", NORMAL);
    assert(
      bytes === `${ESC}[5;7~` || bytes === `${ESC}${ESC}[5;5~`,
      `C-M-PageUp gave ${JSON.stringify(bytes)}`,
    );
  },
});

Deno.test("keyBytes: words that are not key names", () => {
  for (const word of ["hello", "x", "", "C-", "Enterprise", "F", "Up!", "ls -la"]) {
    assertEquals(keyBytes(word, NORMAL), undefined, JSON.stringify(word));
  }
});

Deno.test("encodeKeys: names become keys, other words text, joined with nothing", () => {
  assertEquals(encodeKeys(["echo hi", "Enter"]), "echo hi\r");
  assertEquals(encodeKeys(["C-c", "ls", "Space", "-la", "Enter"]), "\x03ls -la\r");
  assertEquals(encodeKeys([]), "");
  assertEquals(encodeKeys(["Up"]), `${ESC}[A`);
  assertEquals(encodeKeys(["Up"], { modes: APP }), `${ESC}OA`);
});

Deno.test("encodeKeys: literal mode sends every word as text", () => {
  assertEquals(encodeKeys(["Enter", "C-c", "Up"], { literal: true }), "EnterC-cUp");
  assertEquals(encodeKeys(["Enter"], { literal: true, modes: APP }), "Enter");
});

Deno.test("checkKeyWords: accepts known keys and plain text", () => {
  checkKeyWords([]);
  checkKeyWords(["C-c", "M-x", "S-Up", "C-M-S-F12", "Enter", "hello world", "C-", "x-y"]);
});

Deno.test("checkKeyWords: rejects an unknown modifier key with a usage error", () => {
  for (const word of ["C-foo", "M-nope", "S-F13", "C-1"]) {
    const error = assertThrows(() => checkKeyWords(["Enter", word]));
    assert(error instanceof SkiffError, `expected a SkiffError for ${word}`);
    assertEquals(error.exit, "USAGE");
    assertEquals(error.message, `Unknown key '${word}'. Use --literal to send it as text`);
  }
});
