/** Cells of text, and the ages of states on the wall clock's turns. */

import { assertEquals } from "../../helpers/assert.ts";
import { ago, agoChangesIn, clip, fit, textWidth } from "../../../lib/dash/draw/text.ts";

Deno.test("text: widths of wide and combining characters, clipping and fitting", () => {
  assertEquals(textWidth("abc"), 3);
  assertEquals(textWidth("日本"), 4);
  assertEquals(textWidth("e\u0301"), 1);
  assertEquals(clip("reviewer", 5), "revi…");
  assertEquals(clip("日本語テキスト", 5), "日本…");
  assertEquals(fit("ab", 4), "ab  ");
  assertEquals(textWidth(fit("日本語", 5)), 5);
});

Deno.test("ages: seconds, minutes, hours and days, all turning on the wall clock's turns", () => {
  const now = Date.parse("2026-01-01T12:00:30.250Z");
  const at = (ms: number) => new Date(now - ms).toISOString();
  assertEquals(ago(at(0), now), "0s");
  assertEquals(ago(at(12_000), now), "12s");
  assertEquals(ago(at(5 * 60_000), now), "5m");
  assertEquals(ago(at(3 * 3_600_000), now), "3h");
  assertEquals(ago(at(2 * 86_400_000), now), "2d");
  assertEquals(ago("not a time", now), "");
  // Two panes changed at different moments: both ages turn at the next whole second.
  assertEquals(agoChangesIn(at(1_100), now), 750);
  assertEquals(agoChangesIn(at(4_900), now), 750);
  // Minutes turn at the next whole minute.
  assertEquals(agoChangesIn(at(10 * 60_000 + 123), now), 29_750);
});
