import { assertEquals } from "../../helpers/assert.ts";
import { EarlyInput, type KeyPress } from "../../../app/early_input.ts";
import { parseAttachKey } from "../../../lib/config/attach_keys.ts";
import type { AttachKey } from "../../../lib/config/attach_keys.ts";

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});
const attachKey = (spec: string) => parseAttachKey(spec) as AttachKey;
const text = (data: Uint8Array[]) => data.map((d) => new TextDecoder().decode(d)).join("");

Deno.test("early input: typing before the attach goes to the pane in order, held keys as their bytes", () => {
  const early = new EarlyInput();
  assertEquals(early.holdKey(key("\\", { ctrlKey: true })), true);
  assertEquals(early.holdKey(key("x")), false);
  early.holdData(new TextEncoder().encode("x\r"));
  assertEquals(early.holdKey(key("F5")), true);
  // Ctrl+V stays the browser's paste.
  assertEquals(early.holdKey(key("v", { ctrlKey: true })), false);
  const released = early.release(attachKey("C-b"));
  assertEquals(released.leave, false);
  assertEquals(text(released.data), "\x1cx\r\x1b[15~");
});

Deno.test("early input: the detach key, once known, leaves; what came after it is not for the pane", () => {
  const early = new EarlyInput();
  early.holdData(new TextEncoder().encode("ls"));
  early.holdKey(key("B", { ctrlKey: true, shiftKey: true }));
  early.holdData(new TextEncoder().encode("not for the pane"));
  const released = early.release(attachKey("C-b"));
  assertEquals([text(released.data), released.leave], ["ls", true]);
  const fn = new EarlyInput();
  fn.holdKey(key("F12"));
  assertEquals(fn.release(attachKey("F12")).leave, true);
});

Deno.test("early input: past its limit, typing is counted as dropped, not held", () => {
  const early = new EarlyInput();
  early.holdData(new Uint8Array(60 * 1024));
  early.holdData(new Uint8Array(8 * 1024));
  const released = early.release(attachKey("C-\\"));
  assertEquals([released.data.length, released.dropped], [1, 8 * 1024]);
});
