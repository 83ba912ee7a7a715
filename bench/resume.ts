/**
 * Resume after a restore, per real agent CLI (offline against the fake
 * model): the agent runs in a pane with a conversation, skiffd is killed
 * with SIGKILL, and the next command restores it; measured from that
 * command to the agent back at its input box (its resume line typed into the
 * new shell, the agent loaded with its conversation), next to the same
 * agent's own start in a new pane (`skiff new --agent` to its input box), the
 * floor a resume cannot beat. Agents that are not installed are left out.
 * Run alone: `deno run -A bench/resume.ts [AGENT…]`.
 *
 * @module
 */

import { join } from "node:path";
import { startFakeLlm } from "../tests/fixtures/fake_llm_server.ts";
import {
  agentInstalled,
  type AgentName,
  newAgentArgs,
  prepareAgent,
} from "../tests/agents/agent_env.ts";
import type { PaneInfo } from "../lib/protocol/panes.ts";
import { type BenchRow, isolatedEnv, sampledRow, skiff, waitUntil } from "./harness.ts";

/** The agents that can resume a conversation by its id. */
const RESUMABLE: AgentName[] = ["claude", "codex", "opencode", "gemini", "qwen"];
/** Crashes and resumes per agent. */
const RUNS = 3;

async function paneInfo(env: Record<string, string>, name: string): Promise<PaneInfo> {
  const { panes } = JSON.parse(await skiff(["ls", "--json"], env)) as { panes: PaneInfo[] };
  return panes.find((p) => p.name === name)!;
}

async function idle(env: Record<string, string>, name: string): Promise<void> {
  await skiff(["wait", name, "--until", "idle", "--timeout", "240"], env);
}

/** Kills skiffd with SIGKILL, as a crash would. */
function crash(root: string): void {
  const pid = Number(Deno.readTextFileSync(join(root, "run", "skiffd.lock")).trim());
  Deno.kill(pid, "SIGKILL");
}

/** The log lines of skiffd's last start, from its start to the resume line typed. */
function restoreLog(root: string): string {
  const lines = Deno.readTextFileSync(join(root, "run", "skiffd.log")).split("\n");
  const from = lines.findLastIndex((l) => l.includes("starting, pid"));
  return lines.slice(from).filter((l) => /starting, pid|restored|resum|typed/.test(l))
    .map((l) => `    ${l}`).join("\n");
}

/** One agent: its own start, then RUNS crashes, each timed to the agent back at its input box. */
async function benchAgent(
  agent: AgentName,
  log: (line: string) => void,
): Promise<{ start: number[]; resume: number[] }> {
  const llm = await startFakeLlm({ delayMs: 20 });
  const { root, env } = await isolatedEnv();
  try {
    const work = join(root, "work");
    const launch = await prepareAgent(agent, {
      home: join(root, "agent-home"),
      workdir: work,
      llmPort: llm.port,
    });
    const started = performance.now();
    await skiff(
      newAgentArgs(agent, launch, { cwd: work, name: agent }),
      env,
    );
    await idle(env, agent);
    const start = [performance.now() - started];
    await skiff(["send", agent, "remember the word pelican", "--enter", "--timeout", "60"], env);
    await idle(env, agent);
    const resume: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await waitUntil("the conversation to be known", async () => {
        return (await paneInfo(env, agent)).conversation?.live === true;
      });
      crash(root);
      const restoring = performance.now();
      await skiff(["ls"], env);
      await waitUntil(`${agent} to be resumed`, async () => {
        const p = await paneInfo(env, agent);
        if (p.resume?.state === "skipped" || p.resume?.state === "failed") {
          throw new Error(`${agent} not resumed: ${p.resume.why}`);
        }
        return p.resume?.state === "typed" && p.agent === agent;
      }, 240_000);
      await idle(env, agent);
      resume.push(performance.now() - restoring);
    }
    log(`  ${agent}: skiffd.log of the last restore:\n${restoreLog(root)}`);
    log(
      `  ${agent}: its own start ${start[0].toFixed(0)} ms; back after a restore ${
        resume.map((n) => n.toFixed(0)).join(" ")
      } ms`,
    );
    return { start, resume };
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await llm.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** Runs the resume benchmarks for `agents` (default: every installed one that can resume). */
export async function benchResume(
  log: (line: string) => void,
  agents: AgentName[] = RESUMABLE,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const agent of agents.filter((a) => RESUMABLE.includes(a))) {
    if (!agentInstalled(agent)) {
      log(`  ${agent}: not installed (tests/agents/install.sh ${agent}); left out`);
      continue;
    }
    const times = await benchAgent(agent, log);
    rows.push(sampledRow({
      metric: `resume after a restore: ${agent} back at its input box (vs its own start)`,
      unit: "ms",
      higherIsBetter: false,
      target: "as fast as its own start allows",
    }, { skiff: times.resume, baseline: times.start }));
  }
  return rows;
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  const agents = Deno.args.length > 0 ? Deno.args as AgentName[] : undefined;
  console.log(renderTable(await benchResume((line) => console.error(line), agents)));
}
