/**
 * Real Claude Code, offline against the fake model server, as the Skiff
 * agent: the first `skiff skipper` starts it and it reaches idle; after a
 * kill -9 of skiffd within 15 s of its start line, the next open types its
 * continue line (`claude --continue`) at once, and only once, and the
 * conversation comes back.
 *
 * Runs when Claude Code is installed (`tests/agents/install.sh claude`) and
 * selected by `SKIFF_REAL_AGENTS` (Claude Code and Codex by default), or
 * when `SKIFF_REQUIRE_AGENTS` names it; then a missing install fails.
 */

import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { OpenJson } from "../helpers/skipper.ts";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentBin, prepareAgent } from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import { START_LINE_MARK } from "../../lib/skipper/marks.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function pane(skiff: SkiffEnv, id: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.id === id)!;
}

async function idleClaude(skiff: SkiffEnv, id: string): Promise<PaneInfo> {
  await skiff.ok(["wait", id, "--until", "idle", "--timeout", "90"]);
  const info = await pane(skiff, id);
  assertEquals([info.agent, info.state], ["claude", "idle"]);
  return info;
}

Deno.test({
  name:
    "real claude as the Skiff agent: first open reaches idle; a kill -9 seconds after a start line: the continue line at once, once",
  ignore: !runsAgent("claude"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assertInstalled("claude");
    const llm = await startFakeLlm({ delayMs: 120 });
    try {
      await withSkiff(async (skiff) => {
        const folder = join(skiff.env.HOME, "skiff-agent");
        const launch = await prepareAgent("claude", {
          home: skiff.env.HOME,
          workdir: folder,
          llmPort: llm.port,
        });
        // skiffd (started by the open) passes this on to the pane's shell.
        Object.assign(skiff.env, launch.env, {
          PATH: `${dirname(agentBin("claude"))}:${launch.env.PATH}`,
        });
        await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
        await Deno.writeTextFile(
          skiff.configFile,
          '[skiff_agent]\nenabled = true\nagent = "claude"\n',
        );
        try {
          await flow(skiff);
        } catch (error) {
          const screen = await skiff.run(["capture", "p1"]);
          const reason = (error as Error).message;
          // CI shows a failure's last lines: the reason goes there too.
          throw new Error(`${reason}\n--- screen ---\n${screen.stdout}\n--- failed: ${reason}`);
        }
      });
    } finally {
      await llm.close();
    }

    async function flow(skiff: SkiffEnv): Promise<void> {
      const first = await skiff.json<OpenJson>(["skipper"]);
      assertEquals([first.how, first.start.typed], ["created", "start"]);
      let info = await idleClaude(skiff, "p1");
      assert(!info.foreground?.argv.includes("--continue"), "a new conversation at first");
      // One turn, so there is a conversation to continue.
      await skiff.ok(["send", "p1", "remember the word pelican", "--enter"]);
      await skiff.ok(["wait", "p1", "--until", "idle", "--timeout", "90"]);

      // A crash seconds after a start line (set on the mark, not waited for): the guard
      // is the old shell's, so the restored pane's new shell gets its line at once.
      const generation = (await pane(skiff, "p1")).generation;
      await skiff.ok(["mark", "p1", `${START_LINE_MARK}=${Date.now() - 2000}@${generation}`]);
      const pid = (await skiff.daemonPid())!;
      Deno.kill(pid, "SIGKILL");
      await waitFor("skiffd to die", () => !pidAlive(pid));

      const again = await skiff.json<OpenJson>(["skipper"]);
      assertEquals([again.how, again.pane?.id, again.start.typed], ["found", "p1", "continue"]);
      assertEquals(again.start.waited_ms, 0, "the new shell's line goes in at once");
      info = await idleClaude(skiff, "p1");
      assert(info.foreground?.argv.includes("--continue"), `argv: ${info.foreground?.argv}`);
      await skiff.waitForScreen("p1", /pelican/, { timeout: 30_000 });
      // A second open types nothing more.
      const third = await skiff.json<OpenJson>(["skipper"]);
      assertEquals(third.start.typed, null);
      assertMatch(third.start.why ?? "", /Claude Code runs in it/);
      // End the session while skiffd runs, so that Claude Code goes with it.
      const pids = [info.pid!, info.foreground!.pid];
      await skiff.ok(["kill", "p1"]);
      await waitFor("Claude Code to end", () => !pids.some(pidAlive), { timeout: 15_000 });
    }
  },
});
