import { assertEquals } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { Throttle } from "../../../lib/mcp/throttle.ts";

Deno.test("throttle: the first poke runs at once, a burst after it runs once more at the interval's end", async () => {
  const runs: number[] = [];
  const throttle = new Throttle(() => runs.push(performance.now()), 100);
  const start = performance.now();
  for (let i = 0; i < 20; i++) throttle.poke();
  assertEquals(runs.length, 1);
  await waitFor("the trailing run", () => runs.length === 2, { timeout: 5000 });
  // No more than the one trailing run for the whole burst, and it waited for the interval.
  assertEquals(runs.length, 2);
  assertEquals(runs[1] - start >= 99, true);
  throttle.poke();
  throttle.close();
  assertEquals(runs.length, 2, "a poke within the interval waits; close drops it");
});
