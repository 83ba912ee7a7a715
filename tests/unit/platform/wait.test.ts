import { assert, assertEquals } from "../../helpers/assert.ts";
import { waitAtMost } from "../../../lib/platform/wait.ts";

Deno.test("waitAtMost: ends when the promise settles, either way", async () => {
  let resolve!: () => void;
  const pending = new Promise<void>((r) => resolve = r);
  const start = performance.now();
  const waiting = waitAtMost(pending, 60_000);
  resolve();
  await waiting;
  assert(performance.now() - start < 30_000, "it did not wait for the time");
  await waitAtMost(Promise.reject(new Error("no")), 60_000);
});

Deno.test("waitAtMost: ends after the time when the promise never settles", async () => {
  const order: string[] = [];
  await waitAtMost(new Promise(() => {}), 20).then(() => order.push("waited"));
  assertEquals(order, ["waited"]);
});
