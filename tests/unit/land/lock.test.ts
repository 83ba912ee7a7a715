/** The landing lock of a repository: one holder; the next waits, and can stop waiting. */

import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { takeLandLock } from "../../../lib/land/lock.ts";
import { SkiffError } from "../../../lib/errors.ts";

Deno.test("takeLandLock: a second waits until the first lets go, and hears who holds it", async () => {
  const common = await Deno.makeTempDir();
  try {
    const first = await takeLandLock(common);
    let heard: number | null | undefined;
    let taken = false;
    const second = takeLandLock(common, { waiting: (pid) => heard = pid }).then((lock) => {
      taken = true;
      return lock;
    });
    // The second asked and is waiting: it heard the holder's pid before blocking.
    await new Promise((resolve) => setTimeout(resolve, 0));
    assertEquals(heard, Deno.pid);
    assert(!taken, "not while the first holds it");
    first.release();
    (await second).release();
    assert(taken);
  } finally {
    await Deno.remove(common, { recursive: true });
  }
});

Deno.test("takeLandLock: a stop while waiting is an interrupted refusal", async () => {
  const common = await Deno.makeTempDir();
  try {
    using _held = await takeLandLock(common);
    const stop = new AbortController();
    const waiting = takeLandLock(common, { signal: stop.signal });
    stop.abort();
    const error = await assertRejects(() => waiting, SkiffError) as SkiffError;
    assertEquals(error.details.reason, "interrupted");
  } finally {
    await Deno.remove(common, { recursive: true });
  }
});
