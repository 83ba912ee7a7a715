import { assertEquals } from "../../helpers/assert.ts";
import { KeyFinder } from "../../../lib/client/attach_keys.ts";
import { type AttachKey, describeKey, parseAttachKey } from "../../../lib/config/attach_keys.ts";

function key(spec: string): AttachKey {
  const parsed = parseAttachKey(spec);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

Deno.test("parseAttachKey: Ctrl keys and function keys; keys programs need are refused", () => {
  assertEquals(parseAttachKey("C-\\"), { name: "C-\\", ctrl: "\\" });
  assertEquals(parseAttachKey("C-]"), { name: "C-]", ctrl: "]" });
  assertEquals(parseAttachKey("C-A"), { name: "C-a", ctrl: "a" });
  assertEquals(parseAttachKey("f12"), { name: "F12", fn: 12 });
  assertEquals([describeKey(key("C-\\")), describeKey(key("F3"))], ["Ctrl+\\", "F3"]);
  assertEquals(parseAttachKey("C-m"), "is 'C-m', which is Enter: programs need it");
  assertEquals(parseAttachKey("C-["), "is 'C-[', which is Escape: programs need it");
  for (const bad of ["", "x", "C-", "C-ab", "M-x", "F13", "F0", "Ctrl+\\", "C-1"]) {
    const answer = parseAttachKey(bad);
    assertEquals(typeof answer, "string", bad);
    assertEquals((answer as string).includes("not a key Skiff can keep; use C- with"), true, bad);
  }
});

Deno.test("KeyFinder: finds the plain control byte, kitty and modifyOtherKeys forms", () => {
  const finder = new KeyFinder({ detach: key("C-\\"), history: key("C-]") });
  assertEquals(finder.find(bytes("abc")), undefined);
  assertEquals(finder.find(bytes("ab\x1ccd")), { action: "detach", at: 2, length: 1, press: true });
  assertEquals(finder.find(bytes("x\x1d")), { action: "history", at: 1, length: 1, press: true });
  // kitty: press, with caps lock on, with alternate keys, and a release.
  assertEquals(finder.find(bytes("a\x1b[92;5u")), {
    action: "detach",
    at: 1,
    length: 7,
    press: true,
  });
  assertEquals(finder.find(bytes("\x1b[92;69u"))?.press, true);
  assertEquals(finder.find(bytes("\x1b[93:125;5:1u"))?.action, "history");
  assertEquals(finder.find(bytes("\x1b[92;5:3u")), {
    action: "detach",
    at: 0,
    length: 9,
    press: false,
  });
  // With another modifier it is another key, left to the pane.
  assertEquals(finder.find(bytes("\x1b[92;7u")), undefined);
  assertEquals(finder.find(bytes("\x1b[92u")), undefined);
  // xterm's modifyOtherKeys.
  assertEquals(finder.find(bytes("\x1b[27;5;92~"))?.action, "detach");
  assertEquals(finder.find(bytes("\x1b[27;6;92~")), undefined);
  // The first one wins.
  assertEquals(finder.find(bytes("\x1d\x1c"))?.action, "history");
});

Deno.test("KeyFinder: letters and function keys; no history key when it is off", () => {
  const finder = new KeyFinder({ detach: key("C-b"), history: key("F12") });
  assertEquals(finder.find(bytes("\x02"))?.action, "detach");
  assertEquals(finder.find(bytes("\x1b[98;5u"))?.action, "detach");
  assertEquals(finder.find(bytes("\x1b[27;5;66~"))?.action, "detach");
  assertEquals(finder.find(bytes("\x1c")), undefined, "Ctrl+\\ is not kept any more");
  assertEquals(finder.find(bytes("\x1b[24~"))?.action, "history");
  assertEquals(finder.find(bytes("\x1b[24;1:3~"))?.press, false);
  assertEquals(finder.find(bytes("\x1b[24;5~")), undefined, "Ctrl+F12 is the pane's");
  const f1 = new KeyFinder({ detach: key("F1") });
  assertEquals(f1.find(bytes("\x1bOP"))?.action, "detach");
  assertEquals(f1.find(bytes("\x1b[P"))?.action, "detach");
  assertEquals(f1.find(bytes("\x1b[1;5P")), undefined);
  const off = new KeyFinder({ detach: key("C-\\"), history: null });
  assertEquals(off.find(bytes("\x1d")), undefined);
});
