/**
 * Real agent CLIs in real Skiff panes, offline against the fake model server:
 * send → working → turn end → idle and unread; a draft refused; an approval
 * reported as waiting and refused; hooks wired by Skiff reaching skiffd.
 *
 * Which agents run: `SKIFF_REAL_AGENTS` (a comma list, or `all`); by default
 * Claude Code and Codex. An agent that is not installed (see
 * `tests/agents/install.sh`) is skipped, unless `SKIFF_REQUIRE_AGENTS` names
 * it, as CI does; then the test fails.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { EventStream } from "../helpers/events.ts";
import { MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DEFAULT_REPLY, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentInstalled, type AgentName, AGENTS, prepareAgent } from "../agents/agent_env.ts";
import { agentLaunch, AgentRegistry } from "../../lib/agents/mod.ts";
import { shellLine } from "../../lib/platform/shell.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

function listed(variable: string, fallback: string): string[] {
  const value = Deno.env.get(variable) ?? fallback;
  return value === "all" || value === "1" ? [...AGENTS] : value.split(",").filter(Boolean);
}

const selected = listed("SKIFF_REAL_AGENTS", "claude,codex");
const required = listed("SKIFF_REQUIRE_AGENTS", "");

/** How each agent confirms an approval, and what its turn-end hook is called. */
const PER_AGENT: Record<AgentName, { approve: string[]; hook?: string }> = {
  claude: { approve: ["Enter"], hook: "Stop" },
  codex: { approve: ["y"], hook: "notify" },
  gemini: { approve: ["Enter"] },
  opencode: { approve: ["Enter"], hook: "session.idle" },
  qwen: { approve: ["Enter"] },
  grok: { approve: ["Enter"] },
};

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

/** Starts the agent in a pane, with Skiff's own hooks wired in as `skiff new --agent` does. */
async function startAgent(skiff: SkiffEnv, agent: AgentName, llmPort: number): Promise<string> {
  const workdir = join(skiff.root, "work");
  const launch = await prepareAgent(agent, {
    home: join(skiff.root, "agent-home"),
    workdir,
    llmPort,
  });
  const profile = new AgentRegistry().get(agent)!;
  const wired = agentLaunch(profile, {
    hookDir: join(skiff.root, "hooks"),
    hookCommand: (a, event) =>
      shellLine([Deno.execPath(), "run", "-A", "-q", MAIN, "hook", a, event]),
  });
  const hooks = wired.command.slice(1);
  const env = Object.entries({ ...launch.env, ...wired.env })
    .flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  await skiff.ok([
    "new",
    "--name",
    agent,
    "--cwd",
    workdir,
    ...env,
    "--",
    launch.command,
    ...launch.args,
    ...hooks,
  ]);
  await skiff.ok(["wait", agent, "--until", "idle", "--timeout", "90"]);
  return agent;
}

for (const agent of AGENTS) {
  const installed = agentInstalled(agent);
  const mustRun = required.includes(agent);
  Deno.test({
    name: `real ${agent}: send, turn, unread, draft and approval refusals, hooks`,
    ignore: !mustRun && (!selected.includes(agent) || !installed),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      assert(installed, `${agent} is not installed: run tests/agents/install.sh ${agent}`);
      const llm = await startFakeLlm({ delayMs: 120 });
      try {
        await withSkiff(async (skiff) => {
          await skiff.ok(["daemon", "start"]);
          const stream = await EventStream.start(skiff);
          try {
            await flow(skiff, agent, stream);
          } catch (error) {
            // Leave what the pane showed in the failure, for CI logs.
            const explain = await skiff.run(["explain", agent]);
            const screen = await skiff.run(["capture", agent]);
            const events = stream.events.filter((e) => e.event !== "title")
              .map((e) => `${String(e.time).slice(11, 23)} ${e.event}`).join("\n");
            throw new Error(
              `${(error as Error).message}\n--- explain ---\n${explain.stdout}${explain.stderr}` +
                `--- events ---\n${events}\n--- screen ---\n${screen.stdout}`,
            );
          } finally {
            await stream.stop();
          }
        });
      } finally {
        await llm.close();
      }

      async function flow(skiff: SkiffEnv, agent: AgentName, stream: EventStream): Promise<void> {
        const name = await startAgent(skiff, agent, llm.port);
        let info = await pane(skiff, name);
        assertEquals([info.agent, info.state], [agent, "idle"]);

        // A plain turn: send, working, turn end, idle and unread.
        const sent = await skiff.json<{ turn_started: boolean }>([
          "send",
          name,
          "say hello",
          "--enter",
        ]);
        assertEquals(sent.turn_started, true);
        await stream.next((e) => e.event === "turn-start" && e.name === name);
        await stream.next((e) => e.event === "turn-end" && e.name === name, 90_000);
        info = await pane(skiff, name);
        assertEquals([info.state, info.unread], ["idle", true]);
        const replyStart = DEFAULT_REPLY.split(" ").slice(0, 3).join(" ");
        assert((await skiff.ok(["capture", name])).includes(replyStart), "the reply shows");
        await skiff.ok(["seen", name]);

        // A draft in the input box is refused and stays.
        await skiff.ok(["keys", name, "half a draft"]);
        await waitFor("the draft to show", async () => {
          const e = await skiff.json<{ composer: { draft: string } }>(["explain", name]);
          return e.composer.draft.includes("half a draft");
        }, { timeout: 15_000 });
        const draft = await skiff.run(["send", name, "another task", "--enter"]);
        assertEquals(draft.code, 14, draft.stderr);
        // One key per write: Grok ignores a burst of Backspaces.
        for (let i = 0; i < 12; i++) await skiff.ok(["keys", name, "BSpace"]);
        await waitFor("the draft to clear", async () => {
          const e = await skiff.json<{ composer: { draft: string; visible: boolean } }>([
            "explain",
            name,
          ]);
          return e.composer.visible && e.composer.draft === "";
        }, { timeout: 15_000 });

        // An approval shows as waiting, and send refuses to type into it.
        await skiff.ok(["send", name, "please RUNTOOL now", "--enter"]);
        await skiff.ok(["wait", name, "--until", "waiting", "--timeout", "90"]);
        await stream.next((e) => e.event === "waiting" && e.name === name);
        const refused = await skiff.run(["send", name, "1"]);
        assertEquals(refused.code, 13, refused.stderr);
        // Some agents ignore keys for a moment after a dialog opens (Codex does):
        // press the approval key until the dialog goes.
        await waitFor("the approval to be taken", async () => {
          await skiff.ok(["keys", name, ...PER_AGENT[agent].approve]);
          const waited = await skiff.run(["wait", name, "--until", "working", "--timeout", "2"]);
          return waited.code === 0 || (await pane(skiff, name)).state !== "waiting";
        }, { timeout: 30_000, interval: 10 });
        await skiff.ok(["wait", name, "--until", "idle", "--timeout", "90"]);
        await waitFor(
          "the tool's file",
          () =>
            Deno.stat(join(skiff.root, "work", "skiff-tool-output.txt")).then(
              () => true,
              () => false,
            ),
        );

        const hook = PER_AGENT[agent].hook;
        if (hook) {
          const explain = await waitFor(`a ${hook} hook`, async () => {
            const e = await skiff.json<{ hook: { event: string } | null }>(["explain", name]);
            return e.hook?.event === hook ? e : undefined;
          }, { timeout: 30_000 });
          assert(explain.hook, "a hook reached skiffd");
        }
        await skiff.ok(["kill", name]);
      }
    },
  });
}
