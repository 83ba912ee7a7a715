import { assertEquals } from "../../helpers/assert.ts";
import { findScreenSwitch } from "../../../lib/screen/alt_switch.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("findScreenSwitch: 47, 1047 and 1049, set or reset, alone or among other modes", () => {
  assertEquals(findScreenSwitch(bytes("abc\x1b[?1049h")), 3);
  assertEquals(findScreenSwitch(bytes("\x1b[?1049l")), 0);
  assertEquals(findScreenSwitch(bytes("x\x1b[?47h")), 1);
  assertEquals(findScreenSwitch(bytes("\x1b[?1047l")), 0);
  assertEquals(findScreenSwitch(bytes("ok\x1b[?1;1049h")), 2);
});

Deno.test("findScreenSwitch: other modes and sequences are not switches", () => {
  for (
    const text of ["\x1b[?25l", "\x1b[?2004h", "\x1b[1049h", "\x1b[?10490h", "plain", "\x1b[?104"]
  ) {
    assertEquals(findScreenSwitch(bytes(text)), -1, JSON.stringify(text));
  }
});
