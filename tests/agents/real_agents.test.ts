/**
 * End-to-end turns through the real agent CLIs (opt-in: slow, needs tmux and
 * `tests/agents/install.sh`). Enable with `SKIFF_TMUX_AGENTS=1` (all installed
 * agents) or a comma list such as `SKIFF_TMUX_AGENTS=claude,codex`.
 *
 * Each agent answers one plain prompt and one RUNTOOL prompt (approved), and
 * its lifecycle hook command must have fired.
 */
import { join } from "node:path";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentInstalled, type AgentName, AGENTS } from "./agent_env.ts";
import { type AgentDriver, startAgent } from "./driver.ts";
import { shellQuote } from "./tmux.ts";

/** A string the hook log must contain after a finished turn, per agent. */
const HOOK_MARK: Partial<Record<AgentName, string>> = {
  claude: `"hook_event_name":"Stop"`,
  codex: `"type":"agent-turn-complete"`,
  gemini: `"hook_event_name":"AfterAgent"`,
  opencode: `"hook_event_name":"session.idle"`,
  qwen: `"hook_event_name":"Stop"`,
};

function wanted(agent: AgentName): boolean {
  const sel = Deno.env.get("SKIFF_TMUX_AGENTS") ?? "";
  if (!sel || sel === "0") return false;
  return sel === "1" || sel === "all" || sel.split(",").includes(agent);
}

function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

const tmuxOk = hasTmux();

for (const agent of AGENTS) {
  Deno.test({
    name: `real agent ${agent}: plain turn and approved tool turn`,
    ignore: !wanted(agent) || !tmuxOk || !agentInstalled(agent),
    async fn() {
      const base = await Deno.makeTempDir({ prefix: `skiff-agent-${agent}-` });
      const hookLog = join(base, "hooks.jsonl");
      const llm = await startFakeLlm({ delayMs: 30 });
      let driver: AgentDriver | undefined;
      try {
        driver = await startAgent(agent, {
          base: join(base, "run"),
          llmPort: llm.port,
          socket: `skiff-test-${agent}-${Deno.pid}`,
          hooks: `{ cat; echo; } >> ${shellQuote(hookLog)}`,
        });
        await driver.waitReady();
        await driver.submit("say hello");
        await driver.waitDone(1);
        await driver.submit("please RUNTOOL now");
        await driver.waitApproval();
        await driver.approve();
        await driver.waitDone(2);
        const out = join(base, "run", "project", "skiff-tool-output.txt");
        if (!(await Deno.stat(out).then(() => true, () => false))) {
          throw new Error("the approved tool call did not write its file");
        }
        if (!llm.requests().some((r) => r.toolResult)) {
          throw new Error("the model never received the tool result");
        }
        const mark = HOOK_MARK[agent];
        if (mark) {
          const log = await Deno.readTextFile(hookLog).catch(() => "");
          if (!log.replaceAll(/":\s+/g, `":`).includes(mark)) {
            throw new Error(`hook log lacks ${mark}:\n${log.slice(0, 2000)}`);
          }
        }
      } catch (err) {
        if (driver) console.error(`screen:\n${await driver.pane.capture().catch(() => "")}`);
        throw err;
      } finally {
        await driver?.stop();
        await llm.close();
        await Deno.remove(base, { recursive: true }).catch(() => {});
      }
    },
  });
}
