/**
 * The watcher with real agents: Claude Code, offline against the fake model,
 * as the Skiff agent, and a real agent (Codex, or Claude Code when Codex is
 * not selected) as the worker. A task goes to the worker with `skiff ledger
 * add --send`; its turn end reaches the Skiff agent as the spec's line, which
 * Claude Code submits to its model.
 *
 * Runs when `SKIFF_REAL_AGENTS` selects claude (the default does) and it is
 * installed; `SKIFF_REQUIRE_AGENTS` naming claude makes a missing install fail.
 */

import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { waitFor, withSkiff } from "../helpers/skiff.ts";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentInstalled, type AgentName, newAgentArgs, prepareAgent } from "../agents/agent_env.ts";
import { assertInstalled, runsAgent, SELECTED_AGENTS } from "../agents/selection.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";

const worker: AgentName = SELECTED_AGENTS.includes("codex") && agentInstalled("codex")
  ? "codex"
  : "claude";

Deno.test({
  name: `real watcher: Claude Code as the Skiff agent hears of a ${worker} turn end`,
  ignore: !runsAgent("claude"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assertInstalled("claude");
    const llm = await startFakeLlm({ delayMs: 60 });
    try {
      await withSkiff(async (skiff) => {
        skiff.env.SKIFF_LEDGER = join(skiff.root, "skipper", "ledger.db");
        const start = async (agent: AgentName, name: string) => {
          const workdir = join(skiff.root, name);
          const launch = await prepareAgent(agent, {
            home: join(skiff.root, `${name}-home`),
            workdir,
            llmPort: llm.port,
          });
          await skiff.ok(newAgentArgs(agent, launch, { cwd: workdir, name }));
          await skiff.ok(["wait", name, "--until", "idle", "--timeout", "90"]);
        };
        await start("claude", "skipper");
        await start(worker, "worker");
        await skiff.ok(["mark", "skipper", "skiff-agent=1"]);
        await waitFor(
          "the watcher",
          async () => (await skiff.json<DaemonStatus>(["daemon", "status"])).watcher.running,
        );
        const added = await skiff.run([
          "ledger",
          "add",
          "--pane",
          "worker",
          "--task",
          "say hello",
          "--send",
          "--enter",
          "--json",
        ]);
        // The wait for idle above ends once the worker's start is over (Codex's report of idle
        // held past its work on its start), so the task goes at once.
        assertEquals(added.code, 0, added.stderr);
        const uid = (JSON.parse(added.stdout) as { row: { uid: string } }).row.uid;
        const line = `[watch] pane worker ${uid} is idle. Read it, then mark it seen.`;
        // Claude Code submits the line to its model: the fake model sees it.
        await waitFor(
          "the line at the model",
          () => llm.requests().some((r) => r.lastText?.includes(line)),
          { timeout: 120_000 },
        );
        const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.watch.log"));
        assertEquals(
          log.split("\n").filter((l) => l.includes(`woke skipper: ${line}`)).length,
          1,
          log,
        );
      });
    } finally {
      await llm.close();
    }
  },
});
