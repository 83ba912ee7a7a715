/**
 * The protocol fuzzer: 100,000 random and mutated frames from several
 * clients at once (requests with bad params, wrong types, huge numbers,
 * unknown methods, truncated JSON, oversized lines, bytes that are not UTF-8,
 * bad attach frames). skiffd must answer every line with an error (or close
 * that one connection), never crash or hang, and a control client and an
 * attached terminal must not notice a thing.
 *
 * `SKIFF_FUZZ_SEED` replays a run; `SKIFF_FUZZ_FRAMES` changes its size.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { FrameFuzzer, type FuzzFrame, Rng } from "../helpers/fuzz.ts";
import { BASH, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import { encodeFrame, Frame, FrameReader } from "../../lib/protocol/frames.ts";
import { joinBytes } from "../../lib/platform/bytes.ts";
import { LineConn } from "../helpers/raw_socket.ts";

const TOTAL = Number(Deno.env.get("SKIFF_FUZZ_FRAMES") ?? 100_000);
const SEED = Number(Deno.env.get("SKIFF_FUZZ_SEED") ?? Math.floor(Math.random() * 2 ** 31));
const LINE_CLIENTS = 6;
const ATTACH_CLIENTS = 2;
/** The share of frames that go to attached connections. */
const ATTACH_SHARE = 0.1;
const OVERSIZED_PER_CLIENT = 3;
const BATCH = 250;
/** Protocol and exit codes an answer may carry; `error` (an internal error) is not one. */
const KNOWN_CODES = new Set([
  "bad_frame",
  "frame_too_large",
  "bad_request",
  "unknown_method",
  "hello_required",
  "protocol_mismatch",
  "usage",
  "not_found",
  "conflict",
  "not_running",
  "no_agent",
]);

/** What the fuzzing clients did, for the assertions and the report. */
interface Tally {
  frames: number;
  kinds: Map<string, number>;
  answers: number;
  codes: Map<string, number>;
  closedByDaemon: number;
  connections: number;
  problems: string[];
}

function count(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function checkAnswer(line: string, tally: Tally): void {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(line);
  } catch {
    tally.problems.push(`an answer that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  tally.answers++;
  const id = answer.id;
  if (!(id === null || typeof id === "number" || typeof id === "string")) {
    tally.problems.push(`an answer without a proper id: ${line.slice(0, 200)}`);
  }
  const error = answer.error as { code?: unknown; message?: unknown } | undefined;
  if (error === undefined) {
    if (!("result" in answer)) tally.problems.push(`neither result nor error: ${line}`);
    count(tally.codes, "result");
    return;
  }
  const code = String(error.code);
  count(tally.codes, code);
  if (!KNOWN_CODES.has(code) || typeof error.message !== "string") {
    tally.problems.push(`unexpected error answer: ${line.slice(0, 300)}`);
  }
}

async function lineClient(
  skiff: SkiffEnv,
  fuzz: FrameFuzzer,
  rng: Rng,
  quota: number,
  tally: Tally,
) {
  let oversized = OVERSIZED_PER_CLIENT;
  let left = quota;
  while (left > 0) {
    const conn = new LineConn(await Deno.connect({ transport: "unix", path: skiff.socket }));
    tally.connections++;
    const frames: FuzzFrame[] = [];
    if (rng.chance(0.7)) {
      const hello = new TextEncoder().encode('{"id":0,"method":"hello","params":{"protocol":1}}\n');
      frames.push({ bytes: hello, answers: 1, kind: "hello" });
    }
    // A few batches per connection, then a new one (some hang up mid-line).
    for (let batches = 1 + rng.int(4); batches > 0 && left > 0; batches--) {
      while (frames.length < BATCH && left - frames.length > 0) {
        const wantBig = oversized > 0 && rng.chance((2 * OVERSIZED_PER_CLIENT) / quota);
        if (wantBig) oversized--;
        frames.push(wantBig ? fuzz.oversized() : fuzz.request());
      }
      left -= frames.length;
      tally.frames += frames.length;
      for (const frame of frames) count(tally.kinds, frame.kind);
      await conn.write(joinBytes(frames.map((f) => f.bytes)));
      const owed = frames.reduce((sum, f) => sum + f.answers, 0);
      frames.length = 0;
      const { lines, ended } = await conn.answers(owed);
      for (const line of lines) checkAnswer(line, tally);
      if (ended) {
        tally.closedByDaemon++;
        tally.problems.push(
          `the daemon closed a JSON-lines connection after ${lines.length}/${owed}`,
        );
        break;
      }
    }
    if (rng.chance(0.3)) await conn.write(new TextEncoder().encode('{"id":7,"method":"pane.li'));
    conn.close();
  }
}

async function attachClient(
  skiff: SkiffEnv,
  fuzz: FrameFuzzer,
  rng: Rng,
  quota: number,
  tally: Tally,
) {
  let left = quota;
  while (left > 0) {
    const client = await DaemonClient.connect(skiff.socket);
    tally.connections++;
    const attached = client.call("attach", { pane: "target", cols: 80, rows: 24 }, { raw: true });
    let ended = false;
    let fatal: (FuzzFrame & { fatal: boolean }) | undefined;
    // Some clients send frames right behind the request, before its answer.
    let early = rng.chance(0.3) ? rng.int(20) : 0;
    for (let n = 1 + rng.int(400); n > 0 && left > 0 && !fatal; n--) {
      if (early-- === 0) {
        await attached;
        client.onRaw((data) => {
          if (data === null) ended = true;
        });
      }
      const frame = fuzz.attachFrame();
      left--;
      tally.frames++;
      count(tally.kinds, frame.kind);
      await client.write(frame.bytes);
      if (frame.fatal) fatal = frame;
    }
    if (early >= 0) {
      await attached;
      client.onRaw((data) => {
        if (data === null) ended = true;
      });
    }
    if (fatal?.kind === "attach oversized frame") {
      // skiffd closes this one connection.
      await waitFor("skiffd to close the connection with the oversized frame", () => ended, {
        timeout: 30_000,
      });
      tally.closedByDaemon++;
    } else if (ended) {
      tally.problems.push("skiffd closed an attached connection that sent only harmless frames");
    }
    client.close();
  }
}

/** Keeps asking for the pane list and checks every answer; returns how many it got. */
async function controlClient(skiff: SkiffEnv, done: () => boolean): Promise<number> {
  const client = await DaemonClient.connect(skiff.socket);
  let calls = 0;
  try {
    while (!done()) {
      const { panes } = await client.call("pane.list");
      assertEquals(panes.map((p) => [p.id, p.name, p.status]), [
        ["p1", "watched", "running"],
        ["p2", "target", "running"],
      ]);
      calls++;
    }
  } finally {
    client.close();
  }
  return calls;
}

/** An attached terminal that keeps typing a command and waits for its output. */
async function terminalClient(skiff: SkiffEnv, done: () => boolean): Promise<number> {
  const client = await DaemonClient.connect(skiff.socket);
  await client.call("attach", { pane: "watched", cols: 100, rows: 30 }, { raw: true });
  const reader = new FrameReader();
  let output = "";
  let ended = false;
  client.onRaw((data) => {
    if (data === null) {
      ended = true;
      return;
    }
    for (const frame of reader.push(data)) {
      if (frame.type === Frame.OUTPUT) output += new TextDecoder().decode(frame.payload);
      if (frame.type === Frame.END) ended = true;
    }
  });
  let rounds = 0;
  try {
    while (!done()) {
      const tick = `tick-${rounds}`;
      await client.write(encodeFrame(Frame.INPUT, `echo ${tick} | tr a-z A-Z\r`));
      await waitFor(`the attached terminal to show ${tick.toUpperCase()}`, () => {
        assert(!ended, "the attached terminal was detached");
        return output.includes(`${tick.toUpperCase()}\r\n`);
      }, { timeout: 30_000 });
      rounds++;
      output = output.slice(-200);
    }
    await client.write(encodeFrame(Frame.DETACH, ""));
  } finally {
    client.close();
  }
  return rounds;
}

Deno.test("fuzzer: 100,000 bad frames from several clients; skiffd answers each, and other clients never notice", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "watched", "--", ...BASH]);
    await skiff.ok(["new", "--name", "target", "--", "sh", "-c", "stty raw -echo; exec cat"]);
    const pid = (await skiff.daemonPid())!;
    const taken = { panes: ["p1", "p2"], sessions: ["s1", "s2"], names: ["watched", "target"] };
    const tally: Tally = {
      frames: 0,
      kinds: new Map(),
      answers: 0,
      codes: new Map(),
      closedByDaemon: 0,
      connections: 0,
      problems: [],
    };
    console.log(`fuzz seed ${SEED} (SKIFF_FUZZ_SEED=${SEED} replays it)`);
    const attachQuota = Math.round((TOTAL * ATTACH_SHARE) / ATTACH_CLIENTS);
    const lineQuota = Math.round((TOTAL - attachQuota * ATTACH_CLIENTS) / LINE_CLIENTS);
    let fuzzing = true;
    const observers = Promise.all([
      controlClient(skiff, () => !fuzzing),
      terminalClient(skiff, () => !fuzzing),
    ]);
    // Its failure is reported once the fuzzers are done, not as a stray rejection.
    observers.catch(() => {});
    const started = performance.now();
    try {
      await Promise.all([
        ...Array.from({ length: LINE_CLIENTS }, (_, i) => {
          const rng = new Rng(SEED + i);
          return lineClient(skiff, new FrameFuzzer(rng, taken), rng, lineQuota, tally);
        }),
        ...Array.from({ length: ATTACH_CLIENTS }, (_, i) => {
          const rng = new Rng(SEED + 100 + i);
          return attachClient(skiff, new FrameFuzzer(rng, taken), rng, attachQuota, tally);
        }),
      ]);
    } finally {
      fuzzing = false;
    }
    const [listCalls, typedRounds] = await observers;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${tally.frames} frames on ${tally.connections} connections in ${seconds} s; ` +
        `${tally.answers} answers; ${tally.closedByDaemon} connections closed by skiffd; ` +
        `control client: ${listCalls} pane.list calls; attached terminal: ${typedRounds} commands`,
    );
    console.log(`  frames: ${JSON.stringify(Object.fromEntries(tally.kinds))}`);
    console.log(`  answers: ${JSON.stringify(Object.fromEntries(tally.codes))}`);

    assertEquals(tally.problems, [], `seed ${SEED}`);
    assert(tally.frames >= TOTAL, `${tally.frames} frames sent`);
    assert(listCalls > 0 && typedRounds > 0, "the observers worked throughout");
    assert(pidAlive(pid), "skiffd is alive");
    assertEquals(await skiff.daemonPid(), pid, "the same skiffd runs");
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assert(!/internal error/i.test(log), log.slice(-3000));
    // And it still does its job for a person.
    await skiff.ok(["keys", "watched", "echo after-the-storm", "Enter"]);
    await skiff.waitForScreen("watched", /^after-the-storm$/m);
  });
});

Deno.test("a client that sends requests but never reads its answers is dropped alone", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "long", "--", ...BASH]);
    await skiff.ok(["keys", "long", "seq 1 3000", "Enter"]);
    await skiff.waitForScreen("long", /^3000$/m);
    const deaf = new LineConn(await Deno.connect({ transport: "unix", path: skiff.socket }));
    const requests = 3000;
    const line = (id: number) =>
      JSON.stringify({
        id,
        method: id === 0 ? "hello" : "pane.capture",
        params: id === 0 ? { protocol: 1 } : { pane: "long", scrollback: 2000 },
      }) + "\n";
    const control = await DaemonClient.connect(skiff.socket);
    try {
      // Each answer holds 2000 lines of history: 3000 of them would pile up about 50 MB.
      await deaf.write(
        new TextEncoder().encode(Array.from({ length: requests }, (_, i) => line(i)).join("")),
      );
      await waitFor("skiffd to drop the client that does not read", async () => {
        const status = await control.call("daemon.status");
        return status.clients === 1;
      }, { timeout: 60_000 });
      const { lines, ended } = await deaf.answers(requests);
      assert(ended && lines.length < requests, `${lines.length} answers, ended: ${ended}`);
      // Everyone else is served as before.
      const { panes } = await control.call("pane.list");
      assertEquals(panes.map((p) => p.name), ["long"]);
    } finally {
      deaf.close();
      control.close();
    }
  });
});
