/**
 * `skiff mcp` against the CLI, in the same run: a warm `list_panes` with
 * 200 panes against `skiff ls --json` as a process, and a `send_to_pane`
 * against `skiff send` as a process (to `cat` with `any`, the send's own
 * cost, and to an idle fake agent with Enter, where the agent's delays
 * count in both). The server is started once and kept, as an agent keeps
 * it; each CLI call pays a process start. The goal: a call under a third
 * of the CLI's time. Samples alternate between the two.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { call, connectMcp } from "../tests/helpers/mcp.ts";
import type { SkiffEnv } from "../tests/helpers/skiff.ts";
import { DaemonClient } from "../lib/client/client.ts";
import { type BenchRow, isolatedEnv, sampledRow, skiff, waitUntil } from "./harness.ts";

/** The panes listed: shells, one cat and one fake agent. */
const PANES = 200;
const RUNS = 11;
const AGENT_RUNS = 5;

function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  return work().then((value) => ({ ms: performance.now() - start, value }));
}

/** A row of MCP against the CLI, met when the call takes under a third of the process. */
function row(metric: string, mcp: number[], cli: number[]): BenchRow {
  const made = sampledRow({
    metric,
    unit: "ms",
    higherIsBetter: false,
    target: "< 1/3 of the CLI's time",
  }, { skiff: mcp, baseline: cli, paired: true });
  made.met = made.skiff < made.tmux! / 3;
  return made;
}

/** Runs the MCP benchmarks and returns table rows. */
export async function benchMcp(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  try {
    await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      join(env.SKIFF_CONFIG_DIR, "projects.toml"),
      fakeAgentToml().join("\n") + "\n",
    );
    await skiff(["daemon", "start"], env);
    const client = await DaemonClient.connect(env.SKIFF_SOCKET);
    for (let i = 0; i < PANES - 2; i++) {
      await client.call("pane.new", { command: ["sh"], cwd: root, name: `idle${i}` });
    }
    await client.call("pane.new", { command: ["cat"], cwd: root, name: "cat" });
    client.close();
    await skiff(["new", "--agent", "fake", "--name", "agent"], env);
    await skiff(["wait", "agent", "--until", "idle", "--timeout", "60"], env);

    const session = await connectMcp({ env, root } as SkiffEnv, ["--allow", "send"]);
    try {
      // Warm: the server has its connection and its modules.
      const first = await call(session, "list_panes");
      const count = (first.structuredContent?.panes as unknown[]).length;
      if (count !== PANES) throw new Error(`list_panes listed ${count} panes, not ${PANES}`);

      const list = { mcp: [] as number[], cli: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        list.mcp.push((await timed(() => call(session, "list_panes"))).ms);
        list.cli.push((await timed(() => skiff(["ls", "--json"], env))).ms);
      }
      log(`  list_panes (MCP): ${list.mcp.map((n) => n.toFixed(0)).join(" ")} ms`);
      log(`  skiff ls --json: ${list.cli.map((n) => n.toFixed(0)).join(" ")} ms`);

      const send = { mcp: [] as number[], cli: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        const sent = await timed(() =>
          call(session, "send_to_pane", { pane: "cat", text: `mcp ${i}`, any: true })
        );
        if (sent.value.isError) throw new Error(sent.value.content[0].text);
        send.mcp.push(sent.ms);
        send.cli.push((await timed(() => skiff(["send", "cat", `cli ${i}`, "--any"], env))).ms);
      }
      log(`  send_to_pane any (MCP): ${send.mcp.map((n) => n.toFixed(0)).join(" ")} ms`);
      log(`  skiff send --any: ${send.cli.map((n) => n.toFixed(0)).join(" ")} ms`);

      const agent = { mcp: [] as number[], cli: [] as number[] };
      const idle = () => skiff(["wait", "agent", "--until", "idle", "--timeout", "60"], env);
      for (let i = 0; i < AGENT_RUNS; i++) {
        const sent = await timed(() =>
          call(session, "send_to_pane", { pane: "agent", text: `task ${i}`, enter: true })
        );
        if (sent.value.structuredContent?.turn_started !== true) {
          throw new Error(`send_to_pane started no turn: ${sent.value.content[0].text}`);
        }
        agent.mcp.push(sent.ms);
        await idle();
        agent.cli.push(
          (await timed(() => skiff(["send", "agent", `cli task ${i}`, "--enter"], env))).ms,
        );
        await idle();
      }
      log(`  send_to_pane to the agent (MCP): ${agent.mcp.map((n) => n.toFixed(0)).join(" ")} ms`);
      log(`  skiff send --enter: ${agent.cli.map((n) => n.toFixed(0)).join(" ")} ms`);
      await waitUntil("the agent to be idle", async () => {
        await idle();
        return true;
      });
      return [
        row(
          `MCP list_panes, ${PANES} panes, warm (vs skiff ls --json as a process)`,
          list.mcp,
          list.cli,
        ),
        row(
          "MCP send_to_pane to cat with any (vs skiff send --any as a process)",
          send.mcp,
          send.cli,
        ),
        {
          ...row(
            "MCP send_to_pane to an idle agent with Enter (vs skiff send --enter)",
            agent.mcp,
            agent.cli,
          ),
          target: "the agent's delays count in both",
          met: undefined,
        },
      ];
    } finally {
      await session.close();
    }
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => "");
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchMcp((line) => console.error(line))));
}
