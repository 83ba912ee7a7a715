import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { FAKE_AGENT, hookPrefix, useFakeAgent } from "../helpers/fake_agent.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import { EventStream } from "../helpers/events.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function startFake(skiff: SkiffEnv, name: string, env: string[] = []): Promise<void> {
  await skiff.ok(["new", "--agent", "fake", "--name", name, ...env.flatMap((e) => ["--env", e])]);
  await skiff.ok(["wait", name, "--until", "idle", "--timeout", "30"]);
}

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

function errorOf(stderr: string): { code: string; exit: number; reason?: string; message: string } {
  return JSON.parse(stderr).error;
}

Deno.test("send --enter types a task, a turn starts and ends, and the pane turns unread", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFake(skiff, "worker", [`FAKE_LOG=${log}`]);
    let info = await pane(skiff, "worker");
    assertEquals([info.agent, info.state, info.unread], ["fake", "idle", false]);

    const sent = await skiff.json<Record<string, unknown>>([
      "send",
      "worker",
      "Fix the flaky test",
      "--enter",
    ]);
    assertEquals([sent.turn_started, sent.entered, sent.bracketed, sent.agent], [
      true,
      true,
      true,
      "fake",
    ]);
    assert(Number(sent.agent_wait_ms) >= 150, "the Enter delay was honoured");
    await skiff.ok(["wait", "worker", "--until", "idle", "--timeout", "20"]);
    info = await pane(skiff, "worker");
    assertEquals([info.state, info.unread], ["idle", true]);
    assertEquals(await Deno.readTextFile(log), JSON.stringify("Fix the flaky test") + "\n");
    const seen = await skiff.json<{ was_unread: boolean }>(["seen", "worker"]);
    assertEquals(seen.was_unread, true);
    assertEquals((await pane(skiff, "worker")).unread, false);
    assertEquals(
      await skiff.ok(["send", "worker", "second task", "--enter"]),
      "Sent to worker (p1); a turn started\n",
    );
  });
});

Deno.test("send refuses, types nothing, and names the reason with its own exit code", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFake(skiff, "agent", [`FAKE_LOG=${log}`]);

    // Working: exit 12.
    await skiff.ok(["send", "agent", "SLOW 4000 long job", "--enter"]);
    const working = await skiff.run(["send", "agent", "more", "--enter", "--json"]);
    assertEquals(working.code, 12);
    assertEquals(errorOf(working.stderr).reason, "working");
    assertMatch(errorOf(working.stderr).message, /Fake Agent is working/);
    await skiff.ok(["wait", "agent", "--until", "idle", "--timeout", "20"]);

    // An approval dialog: exit 13, and Skiff never types into it.
    await skiff.ok(["send", "agent", "APPROVE write a file", "--enter"]);
    await skiff.ok(["wait", "agent", "--until", "waiting", "--timeout", "10"]);
    const approval = await skiff.run(["send", "agent", "1"]);
    assertEquals(approval.code, 13);
    assertEquals(
      approval.stderr,
      "skiff: Pane 'agent': an approval or question shows; Skiff never types into one\n",
    );
    assertMatch(await skiff.ok(["capture", "agent"]), /Do you want to proceed\?/);
    await skiff.ok(["keys", "agent", "1"]);
    await skiff.ok(["wait", "agent", "--until", "idle", "--timeout", "10"]);

    // A draft in the input box: exit 14, and the draft stays as it was.
    await skiff.ok(["keys", "agent", "half a thought"]);
    await skiff.waitForScreen("agent", /^> half a thought$/m);
    const draft = await skiff.run(["send", "agent", "new task", "--enter", "--json"]);
    assertEquals(draft.code, 14);
    assertEquals(errorOf(draft.stderr).reason, "draft");
    assertMatch(await skiff.ok(["capture", "agent"]), /^> half a thought$/m);
    await skiff.ok(["keys", "agent", ...Array(14).fill("BSpace")]);
    await skiff.waitForScreen("agent", /^> Type a task$/m);

    // Nothing above reached the agent except the three real prompts.
    const prompts = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(prompts, ["SLOW 4000 long job", "APPROVE write a file"]);

    // No such pane: 3. A shell: 11. An exited pane: 10.
    assertEquals((await skiff.run(["send", "ghost", "x"])).code, 3);
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const shell = await skiff.run(["send", "sh", "echo hi", "--enter"]);
    assertEquals(shell.code, 11);
    assertMatch(shell.stderr, /no known agent is in front \(bash\); use --any/);
    await skiff.ok(["new", "--name", "gone", "--", "sh", "-c", "exit 0"]);
    await skiff.ok(["wait", "gone", "--until", "exited", "--timeout", "10"]);
    assertEquals((await skiff.run(["send", "gone", "x"])).code, 10);
    // --any types into a plain program.
    await skiff.ok(["send", "sh", "echo any-$((1+1))", "--enter", "--any"]);
    await skiff.waitForScreen("sh", /^any-2$/m);
  });
});

Deno.test("send waits out an agent that is still starting, and a lost paste is not delivered", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await skiff.ok(["new", "--agent", "fake", "--name", "slow", "--env", "FAKE_READY_MS=3000"]);
    await waitFor(
      "the agent to show its splash",
      async () => (await skiff.run(["capture", "slow"])).stdout.includes("Starting"),
    );
    const early = await skiff.run(["send", "slow", "too early", "--json"]);
    assertEquals(early.code, 14);
    assertEquals(errorOf(early.stderr).reason, "no_input_box");
    await skiff.ok(["wait", "slow", "--until", "idle", "--timeout", "20"]);
    await skiff.ok(["send", "slow", "in time"]);
    await skiff.waitForScreen("slow", /^> in time$/m);
  });
});

Deno.test("send waits up to a second for the input box of an agent that is redrawing", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    // The box shows 900 ms after the splash: a send made during the splash waits for it.
    await skiff.ok(["new", "--agent", "fake", "--name", "redraw", "--env", "FAKE_READY_MS=900"]);
    await waitFor(
      "the agent to show its splash",
      async () => (await skiff.run(["capture", "redraw"])).stdout.includes("Starting"),
    );
    const sent = await skiff.json<{ turn_started: boolean }>([
      "send",
      "redraw",
      "after the redraw",
      "--enter",
    ]);
    assertEquals(sent.turn_started, true);
    await skiff.waitForScreen("redraw", /after the redraw/);
  });
});

Deno.test("no turn after Enter exits 8, then idle-no-turn fires and sets unread", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff, { turnStartSeconds: 1.5 });
    await startFake(skiff, "quiet");
    const stream = await EventStream.start(skiff);
    const result = await skiff.run(["send", "quiet", "NOTURN please", "--enter", "--json"]);
    assertEquals(result.code, 8);
    assertEquals(errorOf(result.stderr).code, "no_turn");
    const event = await stream.next((e) => e.event === "idle-no-turn");
    await stream.stop();
    assertEquals([event.name, event.agent], ["quiet", "fake"]);
    assert(!stream.events.some((e) => e.event === "turn-start"), "no turn started");
    assertEquals((await pane(skiff, "quiet")).unread, true);
  });
});

Deno.test("multi-line text and 10 KB of text arrive whole", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFake(skiff, "big", [`FAKE_LOG=${log}`]);
    const multi = "First line of the task\nsecond: with  spaces\n\tthird, tabbed\nlast line";
    await skiff.ok(["send", "big", multi, "--enter"]);
    await skiff.ok(["wait", "big", "--until", "idle", "--timeout", "20"]);
    const words = Array.from({ length: 1600 }, (_, i) => `w${i}`).join(" ");
    const large = (words + "\n").repeat(2).slice(0, 10 * 1024);
    assertEquals(large.length, 10240);
    const sent = await skiff.run(["send", "big", "-", "--enter", "--json"], { stdin: large });
    assertEquals(sent.code, 0, sent.stderr);
    await skiff.ok(["wait", "big", "--until", "idle", "--timeout", "20"]);
    const prompts = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(prompts, [multi, large.trim()]);
  });
});

Deno.test("a person's keys during the Enter delay wait until after the Enter; typing refuses a send", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff, { enterDelayMs: 1500 });
    const log = join(skiff.root, "prompts.log");
    await startFake(skiff, "shared", [`FAKE_LOG=${log}`]);
    const term = await TestTerminal.start([
      Deno.execPath(),
      "run",
      "-A",
      "-q",
      MAIN,
      "attach",
      "shared",
    ], {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      await term.waitForText(/Type a task/);
      const sending = skiff.run(["send", "shared", "the task", "--enter"]);
      await term.waitForText(/^> the task$/m);
      term.type("abc");
      const result = await sending;
      assertEquals(result.code, 0, result.stderr);
      await skiff.ok(["wait", "shared", "--until", "idle", "--timeout", "20"]);
      // The person's keys went in after Enter, so they are the next draft, not part of the task.
      await skiff.waitForScreen("shared", /^> abc$/m);
      assertEquals((await Deno.readTextFile(log)).trim(), JSON.stringify("the task"));

      // Clear the draft, then keep typing keys that leave no draft: a send is refused as typing.
      term.type("\x7f\x7f\x7f");
      await skiff.waitForScreen("shared", /^> Type a task$/m);
      // The person keeps typing while the send starts, however long a loaded machine takes to
      // start it: a key every 100 ms is always within the quiet time that a send waits for.
      let sent = false;
      const typing = skiff.run(["send", "shared", "x", "--json"]).finally(() => sent = true);
      while (!sent) {
        term.type("\x1b[D");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const refused = await typing;
      assertEquals(refused.code, 15);
      assertEquals(errorOf(refused.stderr).reason, "typing");
    } finally {
      term.kill();
    }
  });
});

Deno.test("wait times out with exit 7; explain lists the signals", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await startFake(skiff, "w");
    const waited = await skiff.run(["wait", "w", "--until", "working", "--timeout", "0.5"]);
    assertEquals(waited.code, 7);
    assertEquals(waited.stderr, "skiff: Pane 'w' is idle, not working, after 0.5 s\n");
    const explain = await skiff.json<Record<string, unknown>>(["explain", "w"]);
    assertEquals([explain.agent, explain.agent_label, explain.state], [
      "fake",
      "Fake Agent",
      "idle",
    ]);
    const signals = explain.signals as { source: string; rule: string; says: string }[];
    assert(
      signals.some((s) => s.source === "screen" && s.rule === "input box" && s.says === "idle"),
    );
    assertEquals((explain.composer as { visible: boolean; draft: string }).draft, "");
    const text = await skiff.ok(["explain", "w"]);
    assertMatch(text, /^w \(p1\): Fake Agent, state idle\n/);
    assertMatch(text, /input box shows, empty/);
    await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
    const plain = await skiff.json<{ agent: string | null; state: string }>(["explain", "plain"]);
    assertEquals([plain.agent, plain.state], [null, "shell"]);
  });
});

Deno.test("events: turn-start, turn-end, waiting, bell, exit of the agent, typed, gone", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    // Run the agent from a shell, so that its exit leaves the pane running.
    await skiff.ok(["new", "--name", "host", "--", ...BASH]);
    const stream = await EventStream.start(skiff);
    await skiff.ok(["keys", "host", `${Deno.execPath()} run -A -q ${FAKE_AGENT}`, "Enter"]);
    await skiff.ok(["wait", "host", "--until", "idle", "--timeout", "30"]);
    await skiff.ok(["send", "host", "one turn", "--enter"]);
    await skiff.ok(["wait", "host", "--until", "idle", "--timeout", "20"]);
    await skiff.ok(["send", "host", "APPROVE it", "--enter"]);
    await skiff.ok(["wait", "host", "--until", "waiting", "--timeout", "10"]);
    await skiff.ok(["keys", "host", "y"]);
    await skiff.ok(["wait", "host", "--until", "idle", "--timeout", "10"]);
    // Neither prompt starts a turn: the send says so with exit 8.
    assertEquals((await skiff.run(["send", "host", "BELL", "--enter", "--timeout", "1"])).code, 8);
    assertEquals((await skiff.run(["send", "host", "EXIT", "--enter", "--timeout", "1"])).code, 8);
    await waitFor(
      "the shell to be back",
      async () => (await pane(skiff, "host")).state === "shell",
    );
    await skiff.ok(["kill", "host"]);
    await stream.next((e) => e.event === "gone");
    await stream.stop();
    const names = stream.events.map((e) => `${e.event}${e.what ? `:${e.what}` : ""}`);
    const expected = [
      "agent-start",
      "turn-start",
      "turn-end",
      "turn-start",
      "waiting",
      "turn-end",
      "bell",
      "exit:agent",
      "gone",
    ];
    let at = 0;
    for (const name of names) if (name === expected[at]) at++;
    assertEquals(at, expected.length, `events in order ${expected} within ${names}`);
  });
});

Deno.test("hooks reach skiffd and outrank the screen", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await startFake(skiff, "hooked", [`FAKE_HOOK=${hookPrefix()}`]);
    await skiff.ok(["send", "hooked", "SLOW 300 quick", "--enter"]);
    await skiff.ok(["wait", "hooked", "--until", "idle", "--timeout", "20"]);
    const explain = await waitFor("the Stop hook", async () => {
      const e = await skiff.json<{ hook: { event: string; state: string } | null }>([
        "explain",
        "hooked",
      ]);
      return e.hook?.event === "Stop" ? e : undefined;
    });
    assertEquals(explain.hook!.state, "idle");
    // Outside a pane the hook command does nothing and exits 0.
    const outside = await skiff.run(["hook", "fake", "Stop"], { stdin: "{}" });
    assertEquals([outside.code, outside.stdout, outside.stderr], [0, "", ""]);
  });
});
