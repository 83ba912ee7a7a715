/**
 * Real Claude Code and real Codex, offline against the fake model server,
 * each with Skiff added by `skiff mcp install`: the fake model calls
 * `list_panes`, then `send_to_pane` with the id of the pane it found; the
 * text arrives in that pane, and the tool's result (with the pane's id)
 * is in the next request that reaches the model.
 *
 * Runs when the agent is installed (`tests/agents/install.sh claude codex`)
 * and selected by `SKIFF_REAL_AGENTS` (Claude Code and Codex by default),
 * or when `SKIFF_REQUIRE_AGENTS` names it; then a missing install fails.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { type AgentName, newAgentArgs, prepareAgent } from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import { SCRIPTS } from "../agents/driver.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** What the model has the agent type into the target pane. */
const GREETING = "hello-from-the-agent-over-mcp";

/** The id of the pane named `target` in a `list_panes` result, as the model reads it. */
function targetId(listed: string): string {
  const match = /\\?"id\\?":\s*\\?"(p\d+)\\?",\s*\\?"name\\?":\s*\\?"target\\?"/.exec(listed);
  if (!match) throw new Error(`no pane 'target' in the list_panes result: ${listed.slice(0, 400)}`);
  return match[1];
}

/** The model's script: list the panes, then send to the one named target. */
const SCRIPT = [
  { tool: "list_panes", args: () => ({}) },
  {
    tool: "send_to_pane",
    args: (listed: string) => ({ pane: targetId(listed), text: GREETING, any: true }),
  },
];

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** Sets the agent up in the test's HOME, adds Skiff with `skiff mcp install`, and drives the script. */
async function mcpFlow(agent: AgentName, skiff: SkiffEnv, llm: FakeLlm): Promise<void> {
  const workdir = join(skiff.root, "work");
  await Deno.mkdir(workdir);
  const launch = await prepareAgent(agent, { home: skiff.env.HOME, workdir, llmPort: llm.port });
  if (agent === "codex") skiff.env.CODEX_HOME = launch.env.CODEX_HOME;
  if (agent === "claude") await allowSkiffTools(skiff.env.HOME);
  // The person's file already holds the agent's own settings: they stay, and Skiff is added.
  const before = await Deno.readTextFile(configFile(agent, skiff));
  const installed = await skiff.json<{ changed: boolean; file: string }>([
    "mcp",
    "install",
    agent,
    "--allow",
    "send",
  ]);
  assertEquals([installed.changed, installed.file], [true, configFile(agent, skiff)]);
  const after = await Deno.readTextFile(configFile(agent, skiff));
  assert(after.length > before.length && after.includes("skiff"), "Skiff's entry is in");

  await skiff.ok(["new", "--name", "target", "--cwd", workdir, "--", ...BASH]);
  await skiff.waitForScreen("target", /[$#] ?$/m);
  await skiff.ok(newAgentArgs(agent, launch, { cwd: workdir, name: "agent" }));
  await skiff.ok(["wait", "agent", "--until", "idle", "--timeout", "120"]);
  // Idle is read once the agent's start is over: Codex's includes starting its MCP servers
  // (it reports idle, works on them, then idle again), so the send at once goes in, and the
  // turn it starts has Skiff's tools.
  const prompt = "MCPTOOL greet the pane named target";
  await skiff.ok(["send", "agent", prompt, "--enter"]);
  let asked = llm.requests().length;
  let tries = 1;
  await waitFor("the greeting in the target pane", async () => {
    const front = (await panes(skiff)).find((p) => p.name === "agent");
    // A person would answer an approval the allow rules missed.
    if (front?.state === "waiting") await skiff.ok(["keys", "agent", SCRIPTS[agent].approve]);
    // Claude Code connects its MCP servers after its input box shows, and shows no sign of it:
    // a turn that began before Skiff's server answered has none of its tools (seen under load;
    // docs/agents.md, Limits). The person asks again, once it is idle.
    const since = llm.requests().slice(asked);
    const without = since.some((r) => r.tools && !r.tools.some((t) => t.endsWith("list_panes")));
    if (
      agent === "claude" && front?.state === "idle" && without &&
      !since.some((r) => r.toolCall) && tries < 3
    ) {
      asked = llm.requests().length;
      tries++;
      await skiff.ok(["send", "agent", prompt, "--enter"]);
    }
    return (await skiff.ok(["capture", "target"])).includes(GREETING);
  }, { timeout: 180_000, interval: 500 });
  if (agent === "codex") {
    const turns = llm.requests().filter((r) => r.tools && r.tools.length > 0);
    assert(
      turns.every((r) => r.tools!.some((t) => t.endsWith("list_panes"))),
      "every turn of Codex had Skiff's tools",
    );
  }

  const target = (await panes(skiff)).find((p) => p.name === "target")!;
  // The model called both tools, by the names the agent gave them.
  const calls = llm.requests().map((r) => r.toolCall).filter((c) => c !== undefined);
  assertEquals(calls.length, 2, `tool calls: ${calls}`);
  assertMatch(calls[0]!, /list_panes$/);
  assertMatch(calls[1]!, /send_to_pane$/);
  // The list's result went back to the model with the target's id in it, and the send's too.
  const results = await waitFor("the send's result to reach the model", () => {
    const texts = llm.requests().map((r) => r.toolResultText).filter((t) => t !== undefined);
    return texts.length >= 2 ? texts : undefined;
  }, { timeout: 60_000 });
  assertEquals(targetId(results[0]!), target.id);
  assertMatch(results[1]!, new RegExp(`\\\\?"pane\\\\?":\\s*\\\\?"${target.id}\\\\?"`));
  assertMatch(results[1]!, /\\?"name\\?":\s*\\?"target\\?"/);
  await skiff.ok(["kill", "agent"]);
}

/** Where `agent` reads its MCP servers in the test's HOME. */
function configFile(agent: AgentName, skiff: SkiffEnv): string {
  return agent === "claude"
    ? join(skiff.env.HOME, ".claude.json")
    : join(skiff.env.CODEX_HOME, "config.toml");
}

/** Lets Claude Code call Skiff's two tools without asking, as a person would set it up. */
async function allowSkiffTools(home: string): Promise<void> {
  const file = join(home, ".claude", "settings.json");
  const settings = JSON.parse(await Deno.readTextFile(file));
  settings.permissions = { allow: ["mcp__skiff__list_panes", "mcp__skiff__send_to_pane"] };
  await Deno.writeTextFile(file, JSON.stringify(settings, null, 2));
}

for (const agent of ["claude", "codex"] as const) {
  Deno.test({
    name: `real ${agent} with skiff mcp installed: list_panes, then send_to_pane reaches the pane`,
    ignore: !runsAgent(agent),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      assertInstalled(agent);
      const llm = await startFakeLlm({ delayMs: 40, mcpScript: SCRIPT });
      try {
        await withSkiff(async (skiff) => {
          try {
            await mcpFlow(agent, skiff, llm);
          } catch (error) {
            const screen = await skiff.run(["capture", "agent", "--scrollback", "100"]);
            const tools = llm.requests().map((r) =>
              `${r.kind} call=${r.toolCall} result=${r.toolResultText?.slice(0, 200)} tools=${
                r.tools?.filter((t) => /mcp|skiff|pane/.test(t)).join(",")
              }`
            );
            const reason = (error as Error).message;
            throw new Error(
              `${reason}\n--- agent ---\n${screen.stdout}\n--- requests ---\n${
                tools.join("\n")
              }\n--- failed: ${reason}`,
            );
          }
        });
      } finally {
        await llm.close();
      }
    },
  });
}
