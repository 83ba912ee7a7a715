import { assert, assertEquals } from "../helpers/assert.ts";
import { collectGarbage, IdleCollector } from "../../lib/platform/heap.ts";

function makeGarbage(): void {
  let junk: unknown[] = [];
  for (let i = 0; i < 300_000; i++) junk.push({ i, text: `item ${i}`, list: [i, i] });
  junk = [];
  void junk;
}

Deno.test("collectGarbage frees what nothing holds", () => {
  makeGarbage();
  const before = Deno.memoryUsage().heapUsed;
  assert(collectGarbage(), "the runtime lets skiffd collect");
  const after = Deno.memoryUsage().heapUsed;
  assert(after < before - (8 << 20), `heap ${before} -> ${after}`);
});

Deno.test("IdleCollector collects after growth, then waits out its interval", () => {
  const collector = new IdleCollector({ minGrowthBytes: 4 << 20, minIntervalMs: 60_000 });
  makeGarbage();
  assertEquals(collector.idle(1_000_000), 0, "collected");
  const wait = collector.idle(1_000_500);
  assertEquals(wait, 59_500, "too soon: asks to be called again when the interval is over");
  // Past the interval, with no growth, there is nothing to do.
  assertEquals(collector.idle(2_000_000), 0);
});
