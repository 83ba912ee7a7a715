import { assert, assertEquals } from "../../helpers/assert.ts";
import { BUSY_BYTES_PER_SECOND, PrintRate } from "../../../lib/daemon/screens/pane_screens.ts";
import type { Pane } from "../../../lib/daemon/panes/mod.ts";

/** Panes as the rate reads them: their output counts. */
function panes(...counts: number[]): { outputBytes: number }[] {
  return counts.map((outputBytes) => ({ outputBytes }));
}

Deno.test("print rate: bytes a second over the panes, measured over at least half a second", () => {
  const list = panes(100, 200);
  const rate = new PrintRate(() => list as unknown as Pane[]);
  assertEquals(rate.perSecond(1000), 0, "nothing to compare with yet");
  list[0].outputBytes += 1000;
  list[1].outputBytes += 500;
  assertEquals(rate.perSecond(1200), 0, "too soon: the last rate stands");
  assertEquals(rate.perSecond(2000), 1500);
  // A pane killed takes its count along: no negative rate.
  list.pop();
  assertEquals(rate.perSecond(3000), 0);
});

Deno.test("print rate: a ticker is not busy, a flood is", () => {
  const list = panes(0);
  const rate = new PrintRate(() => list as unknown as Pane[]);
  rate.perSecond(0);
  // t0, t1, … every 5 ms: about 1.4 KB a second.
  list[0].outputBytes += 200 * 7;
  assertEquals(rate.perSecond(1000), 1400);
  assert(rate.perSecond(1000) <= BUSY_BYTES_PER_SECOND);
  list[0].outputBytes += 5 * 1024 * 1024;
  assert(rate.perSecond(2000) > BUSY_BYTES_PER_SECOND);
});
