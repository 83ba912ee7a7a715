/**
 * `skiff new --wait-ready` with the fake agent: it returns once the agent is
 * idle at its input box, so a task can follow at once; exit 7 when the
 * timeout passes first (the pane stays), exit 10 when the pane's process
 * exits first; `--json` prints the id, name, worktree and branch.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { addProject, makeRepo } from "../helpers/git.ts";
import { type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

interface NewJson {
  id: string;
  name: string;
  worktree: { name: string; branch: string; path: string } | null;
  branch: string | null;
  pane: PaneInfo;
}

async function state(skiff: SkiffEnv, name: string): Promise<string | undefined> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)?.state;
}

Deno.test("new --wait-ready returns when the agent is idle, so a task can follow at once", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
    await useFakeAgent(skiff);
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    // The agent takes a while to show its input box, as real agents do.
    const out = await skiff.json<NewJson>([
      "new",
      "--project",
      "demo",
      "--worktree",
      "w1",
      "--agent",
      "fake",
      "--env",
      "FAKE_READY_MS=1500",
      "--wait-ready",
    ]);
    assertEquals([out.id, out.name, out.branch], ["p1", "w1", "skiff/w1"]);
    assertEquals(out.worktree?.name, "w1");
    assertEquals([out.pane.agent, out.pane.state], ["fake", "idle"]);
    const sent = await skiff.json<{ exit: number; row: { branch: string } }>([
      "ledger",
      "add",
      "--pane",
      out.name,
      "--task",
      "Start here",
      "--send",
      "--enter",
    ]);
    assertEquals([sent.exit, sent.row.branch], [0, "skiff/w1"]);
    // Text output: the id alone on stdout.
    const text = await skiff.run(["new", "--agent", "fake", "--name", "t", "--wait-ready"]);
    assertEquals([text.code, text.stdout], [0, "p2\n"]);
    assertEquals(await state(skiff, "t"), "idle");
  });
});

Deno.test("new --wait-ready: exit 7 after --timeout with the pane left, 10 when it exits first, 11 for a shell", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const slow = await skiff.run([
      "new",
      "--agent",
      "fake",
      "--name",
      "slow",
      "--env",
      "FAKE_READY_MS=60000",
      "--wait-ready",
      "--timeout",
      "1",
      "--json",
    ]);
    assertEquals(slow.code, 7, slow.stderr);
    assertEquals(slow.stdout, "");
    const error = JSON.parse(slow.stderr).error;
    assertEquals([error.code, error.pane, error.name, error.state], [
      "timeout",
      "p1",
      "slow",
      "starting",
    ]);
    assertMatch(error.message, /Pane 'slow' is not ready after 1 s: it is starting/);
    assertEquals(await state(skiff, "slow"), "starting", "the pane stays");

    const gone = await skiff.run(["new", "--name", "quick", "--wait-ready", "--", "true"]);
    assertEquals(gone.code, 10, gone.stderr);
    assertEquals(gone.stderr, "skiff: Pane 'quick' exited before its agent was ready\n");

    // A shell never gets ready: exit 11 once it has been quiet a moment, not after the timeout.
    const shell = await skiff.run([
      "new",
      "--name",
      "sh",
      "--wait-ready",
      "--timeout",
      "600",
      "--",
      "bash",
      "--norc",
    ]);
    assertEquals(shell.code, 11, shell.stderr);
    assertMatch(shell.stderr, /Pane 'sh' runs no agent, so it never gets ready/);

    const usage = await skiff.run(["new", "--timeout", "3"]);
    assertEquals(usage.code, 2);
    assertMatch(usage.stderr, /--timeout.*--wait-ready/);
  });
});

Deno.test("case 2: new --wait-ready waits for the first report of an agent that reports its own state, so a send at once never finds it working", async () => {
  await withSkiff(async (skiff) => {
    // Like Codex: its input box shows at once, then it works on its own start for a while
    // and only then says `state=idle` (OSC 7501) for the first time.
    await useFakeAgent(skiff, { reports: true });
    for (let i = 1; i <= 5; i++) {
      const name = `late${i}`;
      const made = await skiff.json<NewJson>([
        "new",
        "--agent",
        "fake",
        "--name",
        name,
        "--env",
        "FAKE_REPORT_MS=1500",
        "--wait-ready",
      ]);
      assertEquals([made.pane.agent, made.pane.state], ["fake", "idle"]);
      const sent = await skiff.run(["send", name, `task ${i}`, "--enter"]);
      assertEquals(sent.code, 0, `start ${i}: ${sent.stderr}`);
    }
  });
});
