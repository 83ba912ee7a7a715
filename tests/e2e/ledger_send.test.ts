import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { FAKE_AGENT, loggedPrompts, startFakeAgent, useFakeAgent } from "../helpers/fake_agent.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

interface Row {
  uid: string;
  state: string;
  stored_state: string;
  generation: number | null;
  result: string;
  pane: string | null;
}

async function show(skiff: SkiffEnv, uid: string): Promise<Row> {
  return (await skiff.json<{ row: Row }>(["ledger", "show", uid])).row;
}

function ledgerEnv(skiff: SkiffEnv): void {
  skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
}

Deno.test("ledger add --send --enter delivers the task with its result path and marks it sent", async () => {
  await withSkiff(async (skiff) => {
    ledgerEnv(skiff);
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFakeAgent(skiff, "coder", { env: { FAKE_LOG: log } });
    const { generation } = await skiff.json<{ generation: number }>(["explain", "coder"]);
    const out = await skiff.json<{ row: Row; send: { turn_started: boolean }; exit: number }>([
      "ledger",
      "add",
      "--pane",
      "coder",
      "--task",
      "Write the changelog",
      "--send",
      "--enter",
    ]);
    assertEquals([out.exit, out.row.state, out.send.turn_started], [0, "sent", true]);
    assertEquals(out.row.generation, generation);
    const [message] = await loggedPrompts(log);
    assertMatch(
      message,
      /^Write the changelog\n\n\(Skiff task [0-9a-f]{8}\) When you are done, write your result to \//,
    );
    assert(message.endsWith(out.row.result), "the result path goes with the task");
    // A sent task is not sent again.
    const again = await skiff.run(["ledger", "send", out.row.uid]);
    assertEquals(again.code, 5);
    assertMatch(again.stderr, /is not pending/);
  });
});

Deno.test("a refusal leaves the task as it was; a busy pane keeps it pending; no turn makes it blocked", async () => {
  await withSkiff(async (skiff) => {
    ledgerEnv(skiff);
    await useFakeAgent(skiff, { turnStartSeconds: 1.5 });
    const log = join(skiff.root, "prompts.log");
    await startFakeAgent(skiff, "busy", { env: { FAKE_LOG: log } });
    await skiff.ok(["send", "busy", "SLOW 5000 long job", "--enter"]);
    const working = await skiff.run([
      "ledger",
      "add",
      "--pane",
      "busy",
      "--task",
      "Next job",
      "--send",
      "--enter",
    ]);
    assertEquals(working.code, 12, working.stderr);
    const [uid] = working.stdout.trim().split(" ");
    assertEquals((await show(skiff, uid)).stored_state, "pending");
    assertMatch(working.stderr, /^skiff: Pane 'busy': Fake Agent is working\n$/);
    await skiff.ok(["wait", "busy", "--until", "idle", "--timeout", "20"]);
    const sent = await skiff.run(["ledger", "send", uid.slice(0, 5), "--enter"]);
    assertEquals(sent.code, 0, sent.stderr);
    assertEquals((await show(skiff, uid)).stored_state, "sent");
    await skiff.ok(["wait", "busy", "--until", "idle", "--timeout", "20"]);

    const quiet = await skiff.run([
      "ledger",
      "add",
      "--pane",
      "busy",
      "--task",
      "NOTURN nothing happens",
      "--send",
      "--enter",
      "--json",
    ]);
    assertEquals(quiet.code, 8, quiet.stderr);
    assertEquals(JSON.parse(quiet.stdout).row.stored_state, "blocked");
    assertEquals(JSON.parse(quiet.stderr).error.code, "no_turn");
    assertEquals((await loggedPrompts(log)).length, 3);
  });
});

Deno.test("a task sent before a restore shows interrupted, and ledger send sends it again", async () => {
  await withSkiff(async (skiff) => {
    ledgerEnv(skiff);
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    // Not resumed after the restore: the pane comes back as a bare shell.
    await startFakeAgent(skiff, "r", { env: { FAKE_LOG: log }, extra: ["--no-resume"] });
    const added = await skiff.json<{ row: Row }>([
      "ledger",
      "add",
      "--pane",
      "r",
      "--task",
      "Survive a restart",
      "--send",
      "--enter",
    ]);
    assertEquals(added.row.state, "sent");
    await skiff.ok(["daemon", "restart"]);
    assertEquals((await show(skiff, added.row.uid)).state, "interrupted");
    // The pane is a bare shell now: the send is refused and the task stays as it was.
    const refused = await skiff.run(["ledger", "send", added.row.uid, "--enter"]);
    assertEquals(refused.code, 11);
    assertEquals((await show(skiff, added.row.uid)).state, "interrupted");
    await skiff.ok([
      "keys",
      "r",
      `FAKE_LOG=${log} ${Deno.execPath()} run -A -q ${FAKE_AGENT}`,
      "Enter",
    ]);
    await skiff.ok(["wait", "r", "--until", "idle", "--timeout", "30"]);
    const resent = await skiff.json<{ row: Row }>(["ledger", "send", added.row.uid, "--enter"]);
    assertEquals(resent.row.state, "sent");
    assert(resent.row.generation! > added.row.generation!, "the new generation is stored");
    assertEquals((await loggedPrompts(log)).length, 2);
  });
});

Deno.test("a task cut off by a restore goes again into the agent that resumed its conversation", async () => {
  await withSkiff(async (skiff) => {
    ledgerEnv(skiff);
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFakeAgent(skiff, "r", { env: { FAKE_LOG: log } });
    const added = await skiff.json<{ row: Row }>(
      ["ledger", "add", "--pane", "r", "--task", "Survive a restart", "--send", "--enter"],
    );
    assertEquals(added.row.state, "sent");
    await skiff.ok(["daemon", "restart"]);
    assertEquals((await show(skiff, added.row.uid)).state, "interrupted");
    // skiffd types the resume line itself; the agent is back at its input box after it.
    await waitFor("the agent to resume", async () => {
      const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
      const pane = panes.find((p) => p.name === "r");
      return pane?.agent === "fake" && pane.state === "idle";
    }, { timeout: 30_000 });
    const resent = await skiff.json<{ row: Row }>(["ledger", "send", added.row.uid, "--enter"]);
    assertEquals(resent.row.state, "sent");
    assertEquals((await loggedPrompts(log)).length, 2);
  });
});
