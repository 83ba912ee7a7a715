/**
 * Events as a watcher reads them: numbered within a daemon run, resumable
 * after a reconnect, with unread reasons, a session-ended event, and no news
 * from skiffd's own shutdown.
 *
 * @module
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { EventStream, followEvents } from "../helpers/events.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import type { Event } from "../../lib/protocol/events.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function panes(skiff: SkiffEnv, args: string[] = []): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls", ...args])).panes;
}

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const found = (await panes(skiff)).find((p) => p.name === name);
  assert(found, `no pane ${name}`);
  return found;
}

/** Collects events from a raw subscription until `done` says stop. */
async function collect(
  client: DaemonClient,
  after: { run: string; seq: number } | undefined,
  done: (events: Event[]) => boolean,
): Promise<Event[]> {
  const subscription = await client.subscribe({ after });
  const events: Event[] = [];
  const timer = setTimeout(() => client.close(), 20_000);
  try {
    for await (const event of subscription) {
      events.push(event);
      if (done(events)) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return events;
}

Deno.test("events are numbered, and a client that reconnects gets what it missed", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const first = await DaemonClient.connect(skiff.socket);
    const subscription = await first.subscribe();
    const start = subscription.cursor;
    first.close();
    // While nobody listens, panes come and go.
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--", ...BASH]);
    await skiff.ok(["kill", "one"]);
    const second = await DaemonClient.connect(skiff.socket);
    try {
      const missed = await collect(
        second,
        start,
        (events) => events.some((e) => e.event === "gone"),
      );
      assertEquals(missed.map((e) => e.event), ["pane-created", "pane-created", "gone"]);
      assertEquals(missed.map((e) => e.seq), [start.seq + 1, start.seq + 2, start.seq + 3]);
      assert(missed.every((e) => e.run === start.run), "one run");
    } finally {
      second.close();
    }
  });
});

Deno.test("after a restart, a follower gets a resync and the pane-restored events it missed", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "keep", "--", ...BASH]);
    const stream = await EventStream.start(skiff);
    await skiff.ok(["daemon", "restart"]);
    const restored = await stream.next((e) => e.event === "pane-restored" && e.name === "keep");
    const resync = await stream.next((e) => e.event === "resync");
    assertEquals(resync.reason, "new-run");
    assert(stream.events.indexOf(resync) < stream.events.indexOf(restored), "resync first");
    assertEquals(restored.seq, 1, "the first event of the new run is not lost");
    await stream.stop();
  });
});

Deno.test("unread keeps its reasons; seen clears them and says what they were", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await skiff.ok(["new", "--agent", "fake", "--name", "worker"]);
    await skiff.ok(["wait", "worker", "--until", "idle", "--timeout", "30"]);
    assertEquals((await pane(skiff, "worker")).unread_reasons, []);
    const stream = await EventStream.start(skiff);
    await skiff.ok(["send", "worker", "one turn", "--enter"]);
    const end = await stream.next((e) => e.event === "turn-end");
    assertEquals(end.unread_reasons, ["turn-end"]);
    assertEquals(
      (await skiff.run(["send", "worker", "BELL", "--enter", "--timeout", "1"])).code,
      8,
    );
    await stream.next((e) => e.event === "bell");
    await waitFor("idle-no-turn", () => stream.events.find((e) => e.event === "idle-no-turn"));
    const info = await pane(skiff, "worker");
    assertEquals([info.unread, info.unread_reasons], [true, ["turn-end", "bell", "idle-no-turn"]]);
    const seen = await skiff.json<{ reasons: string[] }>(["seen", "worker"]);
    assertEquals(seen.reasons, ["turn-end", "bell", "idle-no-turn"]);
    const seenEvent = await stream.next((e) => e.event === "seen");
    assertEquals(seenEvent.unread_reasons, ["turn-end", "bell", "idle-no-turn"]);
    assertEquals((await pane(skiff, "worker")).unread_reasons, []);
    await stream.stop();
  });
});

Deno.test("stop and restart are not the panes' news: restored panes keep only their own unread", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "quiet", "--", ...BASH]);
    await skiff.ok(["new", "--name", "rang", "--", ...BASH]);
    await skiff.ok(["keys", "rang", "printf '\\a'", "Enter"]);
    await waitFor("the bell", async () => (await pane(skiff, "rang")).unread);
    await skiff.ok(["daemon", "stop"]);
    await skiff.ok(["daemon", "restart"]);
    const after = await panes(skiff);
    const quiet = after.find((p) => p.name === "quiet")!;
    const rang = after.find((p) => p.name === "rang")!;
    assertEquals([quiet.unread, quiet.unread_reasons], [false, []]);
    assertEquals([rang.unread, rang.unread_reasons], [true, ["bell"]]);
  });
});

Deno.test("session-ended: when the last pane is killed, or the last process exits", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "a", "--session", "pair", "--", ...BASH]);
    await skiff.ok(["new", "--name", "b", "--session", "pair", "--", ...BASH]);
    await skiff.ok(["mark", "pair", "role=test"]);
    await skiff.ok(["new", "--name", "solo", "--", ...BASH]);
    const stream = await EventStream.start(skiff);
    await skiff.ok(["kill", "a"]);
    await skiff.ok(["keys", "solo", "exit", "Enter"]);
    const exited = await stream.next((e) => e.event === "session-ended");
    assertEquals([exited.session_name, exited.why], ["solo", "exited"]);
    await skiff.ok(["kill", "b"]);
    const killed = await stream.next((e) => e.event === "session-ended" && e.why === "killed");
    assertEquals([killed.session_name, killed.marks], ["pair", { role: "test" }]);
    assertEquals(stream.events.filter((e) => e.event === "session-ended").length, 2);
    await stream.stop();
  });
});

Deno.test("ls --json has each pane's session marks and keystroke count; ls --mark filters", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "lead", "--", ...BASH]);
    await skiff.ok(["new", "--name", "other", "--", ...BASH]);
    await skiff.ok(["mark", "lead", "skiff-agent=1"]);
    const lead = await pane(skiff, "lead");
    assertEquals(lead.session_marks, { "skiff-agent": "1" });
    assertEquals(lead.person_inputs, 0);
    assertEquals((await panes(skiff, ["--mark", "skiff-agent"])).map((p) => p.name), ["lead"]);
    assertEquals((await panes(skiff, ["--mark", "skiff-agent=2"])).map((p) => p.name), []);
    // A person typing through an attached terminal moves the count.
    const client = await DaemonClient.connect(skiff.socket);
    try {
      await client.call("attach", { pane: "lead" }, { raw: true });
      const { encodeFrame, Frame } = await import("../../lib/protocol/frames.ts");
      await client.write(encodeFrame(Frame.INPUT, "echo hi\r"));
      await waitFor("the count", async () => (await pane(skiff, "lead")).person_inputs > 0);
    } finally {
      client.close();
    }
    assertEquals((await pane(skiff, "other")).person_inputs, 0);
  });
});

Deno.test("text events say only what is there: a bell in a shell has no agent=null", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "-q", MAIN, "events"],
      env: skiff.env,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let text = "";
    const pump = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (text += chunk) }),
    ).catch(() => {});
    try {
      // Ring the bell until the stream, subscribed by then, shows it.
      const bell = await waitFor("a bell line", async () => {
        await skiff.ok(["keys", "sh", "printf '\\a'", "Enter"]);
        return text.split("\n").find((line) => / bell p1 sh\b/.test(line));
      });
      assertMatch(bell, /^\d\d:\d\d:\d\d bell p1 sh generation=\d+( unread_reasons=bell)?$/);
    } finally {
      child.kill();
      await child.status;
      await pump;
      await child.stderr.cancel().catch(() => {});
    }
  });
});

Deno.test("skiff events follows a restart, and ends with exit 4 once skiffd is stopped for good", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    const follower = await followEvents(skiff, "piped");
    await skiff.ok(["daemon", "restart"]);
    await skiff.ok(["daemon", "stop"]);
    // Without the end at the stop, the follower would look for skiffd for 10 s more.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const output = follower.output();
    const ended = await Promise.race([
      output,
      new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), 8000)),
    ]);
    clearTimeout(timer);
    if (!ended) {
      follower.kill("SIGKILL");
      await output;
    }
    assert(ended, "the follower ended at the stop");
    assertEquals(ended.code, 4);
    assertEquals(JSON.parse(new TextDecoder().decode(ended.stderr)).error, {
      code: "daemon",
      exit: 4,
      message: "skiffd was stopped",
    });
    const stops = new TextDecoder().decode(ended.stdout).trim().split("\n")
      .map((line) => JSON.parse(line) as Event)
      .filter((e) => e.event === "daemon-stopping")
      .map((e) => e.event === "daemon-stopping" && [e.reason, e.returning]);
    assertEquals(stops, [["restarting", true], ["stopped", false]]);
  });
});
