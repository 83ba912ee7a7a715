/**
 * Real agent CLIs in real Skiff panes, offline against the fake model server,
 * started as a person starts them, with `skiff new --agent ID`: send → one
 * turn start and one turn end → idle and unread; a draft refused; an approval
 * reported as waiting, refused, approved, and the tool's result back at the
 * model; Skiff's hooks reaching skiffd; then the agent's continue line, typed
 * into a bare shell as the Skiff agent types it, bringing the conversation
 * back for another turn.
 *
 * Which agents run: `SKIFF_REAL_AGENTS` (a comma list, or `all`); by default
 * Claude Code and Codex. An agent that is not installed (see
 * `tests/agents/install.sh`) is skipped, unless `SKIFF_REQUIRE_AGENTS` names
 * it, as CI does; then the test fails.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { EventStream } from "../helpers/events.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DEFAULT_REPLY, type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";

import {
  type AgentName,
  AGENTS,
  launchEnvArgs,
  newAgentArgs,
  prepareAgent,
  rootOwnedTempDir,
} from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import { SCRIPTS } from "../agents/driver.ts";
import { agentStartLine } from "../../lib/agents/launch.ts";
import { AgentRegistry } from "../../lib/agents/registry.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** What the fake model's tool call runs in the agent's shell tool. */
const TOOL_COMMAND = "skiff ls --json > skiff-tool-output.txt";

const registry = new AgentRegistry();

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

/** How many turns the events stream saw start and end in pane `name`. */
function turns(stream: EventStream, name: string): { starts: number; ends: number } {
  const count = (event: string) =>
    stream.events.filter((e) => e.event === event && e.name === name).length;
  return { starts: count("turn-start"), ends: count("turn-end") };
}

/** Waits until the last hook that reached skiffd says the turn ended. */
async function turnEndHook(skiff: SkiffEnv, name: string): Promise<void> {
  await waitFor(`a turn-end hook from ${name}`, async () => {
    const e = await skiff.json<{ hook: { state: string } | null }>(["explain", name]);
    return e.hook?.state === "idle";
  }, { timeout: 30_000 });
}

/** One plain turn: send, exactly one more turn start and end, idle and unread. */
async function plainTurn(skiff: SkiffEnv, stream: EventStream, name: string): Promise<void> {
  const before = turns(stream, name);
  const sent = await skiff.json<{ turn_started: boolean }>(["send", name, "say hello", "--enter"]);
  assertEquals(sent.turn_started, true);
  await waitFor("the turn to end", () => turns(stream, name).ends > before.ends, {
    timeout: 90_000,
  });
  const info = await pane(skiff, name);
  assertEquals([info.state, info.unread], ["idle", true]);
  await skiff.ok(["seen", name]);
}

for (const agent of AGENTS) {
  Deno.test({
    name: `real ${agent}: turns, refusals, approval, hooks, continue`,
    ignore: !runsAgent(agent),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      assertInstalled(agent);
      // The tool call runs skiff itself: every pane, an agent's included, can reach its skiffd.
      const llm = await startFakeLlm({ delayMs: 120, toolCommand: TOOL_COMMAND });
      // Gemini reads Skiff's hooks only from a root-owned state folder (see docs/agents.md, Hooks).
      const secure = agent === "gemini" ? await rootOwnedTempDir() : undefined;
      try {
        await withSkiff(async (skiff) => {
          await skiff.ok(["daemon", "start"]);
          const stream = await EventStream.start(skiff);
          const at = { pane: agent as string };
          try {
            await flow(skiff, agent, { stream, llm, at });
          } catch (error) {
            // Leave what the pane showed in the failure, for CI logs.
            const explain = await skiff.run(["explain", at.pane]);
            const screen = await skiff.run(["capture", at.pane]);
            const events = stream.events.filter((e) => e.event !== "title")
              .map((e) => `${String(e.time).slice(11, 23)} ${e.event} ${e.name ?? ""}`).join("\n");
            throw new Error(
              `${(error as Error).message}\n--- explain ---\n${explain.stdout}${explain.stderr}` +
                `--- events ---\n${events}\n--- screen ---\n${screen.stdout}\n` +
                // CI shows a failure's last lines: the reason goes there too.
                `--- failed at ${at.pane}: ${(error as Error).message}`,
            );
          } finally {
            await stream.stop();
          }
        }, secure ? { SKIFF_STATE_DIR: join(secure, "state") } : {});
      } finally {
        await llm.close();
        if (secure) await Deno.remove(secure, { recursive: true }).catch(() => {});
      }
    },
  });
}

/** What a walk uses, and `at.pane`: the pane it is in, for the failure report. */
interface Walk {
  stream: EventStream;
  llm: FakeLlm;
  at: { pane: string };
}

/** The whole walk for one agent. */
async function flow(skiff: SkiffEnv, agent: AgentName, { stream, llm, at }: Walk): Promise<void> {
  const profile = registry.get(agent)!;
  const workdir = join(skiff.root, "work");
  const launch = await prepareAgent(agent, {
    home: join(skiff.root, "agent-home"),
    workdir,
    llmPort: llm.port,
  });
  // As a person starts it: the agent found on PATH, Skiff's hooks wired in.
  const made = await skiff.json<{ hooks_unwired: string | null }>(
    newAgentArgs(agent, launch, { cwd: workdir }),
  );
  // An agent with hooks has them wired, but Gemini from a state folder that is not root's.
  if (profile.hooks.kind === "none") assert(made.hooks_unwired, "new says the hooks are not wired");
  else if (agent !== "gemini" || Deno.uid() === 0) assertEquals(made.hooks_unwired, null);
  await skiff.ok(["wait", agent, "--until", "idle", "--timeout", "90"]);
  assertEquals((await pane(skiff, agent)).agent, agent);

  await plainTurn(skiff, stream, agent);
  const replyStart = DEFAULT_REPLY.split(" ").slice(0, 3).join(" ");
  assert((await skiff.ok(["capture", agent])).includes(replyStart), "the reply shows");

  // A draft in the input box is refused and stays.
  await skiff.ok(["keys", agent, "half a draft"]);
  await waitFor("the draft to show", async () => {
    const e = await skiff.json<{ composer: { draft: string } }>(["explain", agent]);
    return e.composer.draft.includes("half a draft");
  }, { timeout: 15_000 });
  const draft = await skiff.run(["send", agent, "another task", "--enter"]);
  assertEquals(draft.code, 14, draft.stderr);
  // One key per write: Grok ignores a burst of Backspaces.
  for (let i = 0; i < 12; i++) await skiff.ok(["keys", agent, "BSpace"]);
  await waitFor("the draft to clear", async () => {
    const e = await skiff.json<{ composer: { draft: string; visible: boolean } }>([
      "explain",
      agent,
    ]);
    return e.composer.visible && e.composer.draft === "";
  }, { timeout: 15_000 });

  // An approval shows as waiting, and send refuses to type into it.
  await skiff.ok(["send", agent, "please RUNTOOL now", "--enter"]);
  await skiff.ok(["wait", agent, "--until", "waiting", "--timeout", "90"]);
  await stream.next((e) => e.event === "waiting" && e.name === agent);
  const refused = await skiff.run(["send", agent, "1"]);
  assertEquals(refused.code, 13, refused.stderr);
  // Some agents ignore keys for a moment after a dialog opens (Codex does):
  // press the approval key until the dialog goes.
  await waitFor("the approval to be taken", async () => {
    await skiff.ok(["keys", agent, SCRIPTS[agent].approve]);
    const waited = await skiff.run(["wait", agent, "--until", "working", "--timeout", "2"]);
    return waited.code === 0 || (await pane(skiff, agent)).state !== "waiting";
  }, { timeout: 30_000, interval: 10 });
  await skiff.ok(["wait", agent, "--until", "idle", "--timeout", "90"]);
  const listed = await waitFor("the tool's file", async () => {
    const text = await Deno.readTextFile(join(workdir, "skiff-tool-output.txt")).catch(() => "");
    try {
      return JSON.parse(text) as { panes: { name: string }[] };
    } catch {
      return undefined; // Not there, or not written whole yet.
    }
  });
  assert(listed.panes.some((p) => p.name === agent), "skiff ls from the agent's tool lists it");
  assert(llm.requests().some((r) => r.toolResult), "the model got the tool's result");
  const hooked = profile.hooks.kind !== "none" && made.hooks_unwired === null;
  if (hooked) await turnEndHook(skiff, agent);
  // Exactly two turns, each opened and closed once: a late hook opens no third.
  assertEquals(turns(stream, agent), { starts: 2, ends: 2 });
  assertEquals((await pane(skiff, agent)).state, "idle");
  await skiff.ok(["kill", agent]);
  if (!profile.continueArgs) return;

  // The continue line, typed into a bare shell as the Skiff agent types it.
  const shell = `${agent}-again`;
  at.pane = shell;
  const env = launchEnvArgs(launch);
  await skiff.ok(["new", "--name", shell, "--cwd", workdir, ...env, "--", "bash", "--norc"]);
  await skiff.waitForScreen(shell, /[$#] ?$/m);
  const line = agentStartLine(agent, {
    continue: true,
    extra: launch.args,
    registry,
    hookDir: join(skiff.env.SKIFF_STATE_DIR, "hooks"),
  });
  await skiff.ok(["keys", "--literal", shell, line]);
  await skiff.ok(["keys", shell, "Enter"]);
  // The old conversation shows, then the agent is ready for a task.
  await skiff.waitForScreen(shell, "RUNTOOL", { timeout: 90_000 });
  await skiff.ok(["wait", shell, "--until", "idle", "--timeout", "90"]);
  assertEquals((await pane(skiff, shell)).agent, agent);
  await waitFor("an empty input box", async () => {
    const e = await skiff.json<{ state: string; composer: { draft: string; visible: boolean } }>(
      ["explain", shell],
    );
    return e.state === "idle" && e.composer.visible && e.composer.draft === "";
  }, { timeout: 30_000 });
  await plainTurn(skiff, stream, shell);
  if (hooked) await turnEndHook(skiff, shell);
  assertEquals(turns(stream, shell), { starts: 1, ends: 1 });
}
