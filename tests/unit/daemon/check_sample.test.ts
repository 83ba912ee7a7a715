import { assertEquals } from "../../helpers/assert.ts";
import { checkSample } from "../../../lib/daemon/upgrade/program_check.ts";
import type { Pane } from "../../../lib/daemon/panes/mod.ts";

/** Panes as the sample reads them: asleep or not, and their history's length. */
function panes(...screens: (number | "asleep")[]): Pane[] {
  return screens.map((s) => ({
    screen: s === "asleep"
      ? { asleep: true, historyLines: 500 }
      : { asleep: false, historyLines: s },
  })) as unknown as Pane[];
}

Deno.test("check sample: the three awake screens with the least history, and the first three asleep", () => {
  // Floods first (10,000 lines each), then quiet awake panes, with sleeping ones between.
  const sample = checkSample(
    panes(10_000, 10_000, "asleep", 10_000, 40, "asleep", 0, "asleep", "asleep", 120),
  );
  assertEquals([...sample].sort((a, b) => a - b), [2, 4, 5, 6, 7, 9]);
});

Deno.test("check sample: fewer panes than the sample takes them all; ties go by order", () => {
  assertEquals([...checkSample(panes(7, "asleep"))].sort(), [0, 1]);
  assertEquals([...checkSample(panes(5, 5, 5, 5))].sort(), [0, 1, 2]);
});
