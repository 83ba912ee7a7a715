import { assert, assertEquals } from "../helpers/assert.ts";
import { joinBytes } from "../../lib/platform/bytes.ts";
import {
  type OutputConsumer,
  type OutputQueue,
  OutputScheduler,
  type SchedulerOptions,
} from "../../lib/daemon/panes/scheduler.ts";

/** A consumer that records what it was given, and its pauses and resumes. */
class Recorder implements OutputConsumer {
  readonly slices: Uint8Array[] = [];
  readonly events: string[] = [];
  settledCount = 0;
  constructor(readonly name: string, readonly log: string[] = []) {}
  consume(data: Uint8Array): void {
    this.slices.push(data.slice());
    this.log.push(`${this.name}:${data.length}`);
  }
  pause(): void {
    this.events.push("pause");
  }
  resume(): void {
    this.events.push("resume");
  }
  settled(): void {
    this.settledCount++;
  }
  get bytes(): Uint8Array {
    return joinBytes(this.slices);
  }
}

function bytes(length: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
}

async function drained(scheduler: OutputScheduler): Promise<void> {
  for (let i = 0; scheduler.busy; i++) {
    if (i > 10_000) throw new Error("the scheduler never drained");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function withScheduler(
  options: Partial<SchedulerOptions>,
  body: (scheduler: OutputScheduler) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const scheduler = new OutputScheduler(options);
    try {
      await body(scheduler);
    } finally {
      scheduler.close();
    }
  };
}

Deno.test(
  "scheduler: while nothing waits, output is parsed as it arrives, until the event loop is due a turn",
  withScheduler({ turnMs: 20 }, async (scheduler) => {
    const log: string[] = [];
    const slow = new Recorder("slow", log);
    const queue = scheduler.add({
      pause: () => slow.pause(),
      resume: () => slow.resume(),
      consume: (data) => {
        slow.consume(data);
        // Parsing that takes longer than a turn.
        const until = performance.now() + 25;
        while (performance.now() < until) { /* busy */ }
      },
    });
    queue.push(bytes(10));
    assertEquals(log, ["slow:10"], "parsed at once");
    queue.push(bytes(20));
    assertEquals(log, ["slow:10"], "the event loop gets its turn first");
    assertEquals(queue.pending, 20);
    await drained(scheduler);
    assertEquals(log, ["slow:10", "slow:20"]);
  }),
);

Deno.test(
  "scheduler: output is parsed whole and in order, in slices",
  // turnMs 0: the event loop is always due a turn first, so everything queues.
  withScheduler({ sliceBytes: 1000, turnMs: 0 }, async (scheduler) => {
    const recorder = new Recorder("a");
    const queue = scheduler.add(recorder);
    const chunks = [5, 1, 4000, 999, 1000, 1001, 3, 20_000].map((n, i) => bytes(n, i));
    for (const chunk of chunks) queue.push(chunk);
    assertEquals(queue.pending, chunks.reduce((sum, c) => sum + c.length, 0));
    await drained(scheduler);
    assertEquals(recorder.bytes, joinBytes(chunks));
    assert(recorder.slices.every((slice) => slice.length <= 1000), "no slice over sliceBytes");
    assertEquals(queue.pending, 0);
  }),
);

Deno.test(
  "scheduler: a quiet pane's output goes before a busy pane's backlog",
  withScheduler({ sliceBytes: 1000, turnMs: 0 }, async (scheduler) => {
    const log: string[] = [];
    const busy = scheduler.add(new Recorder("busy", log));
    busy.push(bytes(50_000));
    // Let one turn run, so the busy pane is known to be busy.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const quiet = scheduler.add(new Recorder("quiet", log));
    quiet.push(bytes(10));
    const before = log.length;
    await drained(scheduler);
    const after = log.slice(before);
    assertEquals(after[0], "quiet:10", `the first slice after the echo: ${after.slice(0, 3)}`);
    assert(after.length > 10, "the busy pane still had most of its backlog");
  }),
);

Deno.test(
  "scheduler: busy panes take turns, a slice each",
  withScheduler({ sliceBytes: 1000, turnMs: 0, quietBytes: 0 }, async (scheduler) => {
    const log: string[] = [];
    const a = scheduler.add(new Recorder("a", log));
    const b = scheduler.add(new Recorder("b", log));
    a.push(bytes(5000));
    b.push(bytes(3000));
    await drained(scheduler);
    assertEquals(log, [
      "a:1000",
      "b:1000",
      "a:1000",
      "b:1000",
      "a:1000",
      "b:1000",
      "a:1000",
      "a:1000",
    ]);
  }),
);

Deno.test(
  "scheduler: a pane with much waiting is paused, and resumed once it drained enough",
  withScheduler(
    { sliceBytes: 1000, pauseBytes: 8000, resumeBytes: 2000, turnMs: 0 },
    async (scheduler) => {
      const recorder = new Recorder("a");
      const queue = scheduler.add(recorder);
      for (let i = 0; i < 8; i++) queue.push(bytes(1000, i));
      assertEquals(recorder.events, [], "8000 bytes is not more than pauseBytes");
      queue.push(bytes(1000, 8));
      assertEquals(recorder.events, ["pause"]);
      assert(queue.paused);
      // More may come in flight after a pause; it is kept, not dropped.
      queue.push(bytes(500, 9));
      assertEquals(recorder.events, ["pause"]);
      await drained(scheduler);
      assertEquals(recorder.events, ["pause", "resume"]);
      assertEquals(queue.pauses, 1);
      assertEquals(recorder.bytes.length, 9500);
      assert(!queue.paused);
    },
  ),
);

Deno.test(
  "scheduler: whenDrained runs after the last byte is parsed, and close drops the rest",
  withScheduler({ sliceBytes: 100 }, async (scheduler) => {
    const recorder = new Recorder("a");
    const queue: OutputQueue = scheduler.add(recorder);
    let seenAtDrain = -1;
    queue.whenDrained(() => seenAtDrain = 0);
    assertEquals(seenAtDrain, 0, "nothing waited, so it ran at once");
    queue.push(bytes(1000));
    const done = new Promise<number>((resolve) =>
      queue.whenDrained(() => resolve(recorder.bytes.length))
    );
    assertEquals(await done, 1000);

    const other = scheduler.add(new Recorder("b"));
    other.push(bytes(5000));
    let closed = false;
    other.whenDrained(() => closed = true);
    other.close();
    assert(closed);
    assertEquals(other.pending, 0);
    await drained(scheduler);
  }),
);

Deno.test(
  "scheduler: a pane that printed a lot lately is not quiet",
  withScheduler({ sliceBytes: 1000, turnMs: 0, quietBytes: 4000 }, async (scheduler) => {
    const log: string[] = [];
    const loud = scheduler.add(new Recorder("loud", log));
    loud.push(bytes(20_000));
    await drained(scheduler);
    const fresh = scheduler.add(new Recorder("fresh", log));
    log.length = 0;
    loud.push(bytes(10));
    fresh.push(bytes(10));
    await drained(scheduler);
    assertEquals(log, ["fresh:10", "loud:10"]);
  }),
);

Deno.test(
  "scheduler: queues that ran are told when output settled",
  withScheduler({ settleMs: 20 }, async (scheduler) => {
    const ran = new Recorder("ran");
    const idle = new Recorder("idle");
    scheduler.add(idle);
    scheduler.add(ran).push(bytes(10));
    await drained(scheduler);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assertEquals([ran.settledCount, idle.settledCount], [1, 0]);
  }),
);

Deno.test(
  "scheduler: output an upgrade handed over waits its turn, before what follows, and a copy of what waits leaves it waiting",
  withScheduler(
    { sliceBytes: 1000, turnMs: 0, pauseBytes: 4000, resumeBytes: 2000 },
    async (scheduler) => {
      const recorder = new Recorder("a");
      const queue = scheduler.add(recorder);
      const handed = bytes(5000, 1);
      queue.queue(handed);
      // Queued, never parsed on the spot, even with nothing else waiting; past pauseBytes, paused.
      assertEquals([recorder.slices.length, queue.pending, recorder.events], [0, 5000, ["pause"]]);
      queue.push(bytes(700, 2));
      const waiting = queue.waiting();
      assertEquals(waiting, joinBytes([handed, bytes(700, 2)]));
      assertEquals(queue.pending, 5700, "the copy left every byte waiting");
      await drained(scheduler);
      assertEquals(recorder.bytes, waiting, "parsed in order, once each");
      assertEquals(recorder.events, ["pause", "resume"]);
      // Part of a chunk parsed: the copy starts where parsing stopped.
      queue.queue(bytes(1500, 3));
      queue.parse(400, performance.now());
      assertEquals(queue.waiting(), bytes(1500, 3).subarray(400));
    },
  ),
);

Deno.test(
  "scheduler: a held queue parses nothing and is not scheduled; released, it parses what waited, in order",
  withScheduler({ pauseBytes: 100, resumeBytes: 10 }, async (scheduler) => {
    const held = new Recorder("held");
    const other = new Recorder("other");
    const heldQueue = scheduler.add(held);
    const otherQueue = scheduler.add(other);
    heldQueue.push(bytes(30, 1));
    heldQueue.hold();
    heldQueue.push(bytes(40, 2));
    heldQueue.push(bytes(50, 3));
    otherQueue.push(bytes(20, 4));
    await drained(scheduler);
    assertEquals(held.bytes, bytes(30, 1), "nothing parsed while held");
    assertEquals(heldQueue.pending, 90);
    assertEquals(heldQueue.listed, "", "not waiting for a turn");
    assertEquals(held.events, [], "its source is paused only once too much waits");
    heldQueue.push(bytes(20, 5));
    assertEquals(held.events, ["pause"]);
    assertEquals(other.bytes, bytes(20, 4), "the others are parsed meanwhile");
    assertEquals(heldQueue.waiting(), joinBytes([bytes(40, 2), bytes(50, 3), bytes(20, 5)]));
    heldQueue.release();
    await drained(scheduler);
    assertEquals(held.bytes, joinBytes([bytes(30, 1), bytes(40, 2), bytes(50, 3), bytes(20, 5)]));
    assertEquals(held.events, ["pause", "resume"]);
    heldQueue.release();
    heldQueue.push(bytes(5, 6));
    assertEquals(held.bytes.length, 145, "parsed at once again");
  }),
);
