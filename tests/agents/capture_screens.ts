/**
 * Captures screen fixtures from the real agent CLIs into
 * `tests/fixtures/screens/<agent>/`.
 *
 * For each agent: start the fake model server, prepare a throwaway HOME, start
 * a private tmux server (120x40) running bash from `env -i`, type the agent's
 * command line, and walk it through idle → busy → done → draft → approval,
 * saving `<state>.ans` (`capture-pane -p -e`) and `<state>.json` for each, plus
 * `session.raw` (everything written to the pane from start to the first done).
 *
 * Run: `deno run -A tests/agents/capture_screens.ts [agent ...]`
 * (install the CLIs first with `tests/agents/install.sh`).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { AGENT_VERSIONS, agentInstalled, type AgentName, AGENTS } from "./agent_env.ts";
import { type AgentDriver, sleep, startAgent } from "./driver.ts";
import type { Foreground } from "./tmux.ts";

/** When to take the busy capture, measured from the first busy sighting. */
const BUSY_CAPTURE_MS: Record<AgentName, number> = {
  claude: 3500,
  codex: 1200, // Codex shows its busy line only until the first token arrives
  gemini: 3500,
  opencode: 3500,
  qwen: 3500,
  grok: 3000,
};

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT_ROOT = join(HERE, "..", "fixtures", "screens");
const SCRATCH = "/tmp/skiff-fx";
const COLS = 120;
const ROWS = 40;
const PROMPT = "say hello";
const DRAFT = "draft: rename the parser module next";
const TOOL_PROMPT = "please RUNTOOL now";
const RAW_LIMIT = 2 * 1024 * 1024;
const DELAY_MS = 250;
const FIRST_MS = 2500;

interface Shot {
  ans: string;
  plain: string;
  title: string;
  foreground: Foreground;
}

async function shot(d: AgentDriver): Promise<Shot> {
  const [ans, plain, title, foreground] = await Promise.all([
    d.pane.capture(true),
    d.pane.capture(),
    d.pane.title(),
    d.pane.foreground(),
  ]);
  return { ans, plain, title, foreground };
}

async function save(d: AgentDriver, state: string, s: Shot, notes: string): Promise<void> {
  const out = join(OUT_ROOT, d.agent);
  await Deno.writeTextFile(join(out, `${state}.ans`), s.ans);
  const meta = {
    agent: d.agent,
    version: AGENT_VERSIONS[d.agent].version,
    state,
    cols: COLS,
    rows: ROWS,
    title: s.title,
    foreground: s.foreground,
    notes,
  };
  await Deno.writeTextFile(join(out, `${state}.json`), JSON.stringify(meta, null, 2) + "\n");
  console.log(`  ${d.agent}/${state} saved at ${d.elapsed()} (title ${JSON.stringify(s.title)})`);
}

async function walk(d: AgentDriver, raw: string): Promise<void> {
  const readyAt = await d.waitReady();
  await save(
    d,
    "idle",
    await shot(d),
    `input box showed ${readyAt} after the command was typed; captured ` +
      `${d.script.settleMs} ms later`,
  );

  await d.submit(PROMPT);
  await d.waitBusy();
  const early = await shot(d);
  await sleep(BUSY_CAPTURE_MS[d.agent]);
  const late = await shot(d);
  const lateBusy = d.script.busy.test(late.plain);
  await save(
    d,
    "busy",
    lateBusy ? late : early,
    `prompt "${PROMPT}"; the fake model waits ${FIRST_MS} ms before the first word, then ` +
      `${DELAY_MS} ms per word; captured ${lateBusy ? BUSY_CAPTURE_MS[d.agent] : 0} ms after ` +
      `the busy marker first showed`,
  );

  await d.waitDone(1);
  await sleep(500);
  await save(d, "done", await shot(d), `idle again after the "${PROMPT}" turn finished`);
  await d.pane.stopPipe();
  const size = await Deno.stat(raw).then((s) => s.size, () => 0);
  if (size > RAW_LIMIT) {
    await Deno.remove(raw);
    d.notes.push(`session.raw was ${size} bytes (over 2 MB) and was not kept`);
  }

  await d.typeVisible(DRAFT);
  await sleep(500);
  await save(d, "draft", await shot(d), `typed "${DRAFT}" without Enter after the first turn`);
  await d.erase(DRAFT);

  await d.submit(TOOL_PROMPT);
  await d.waitApproval();
  await sleep(1500);
  await save(
    d,
    "approval",
    await shot(d),
    `prompt "${TOOL_PROMPT}"; the fake model answered with a call to the agent's shell tool`,
  );
  await d.approve();
  try {
    await d.waitDone(2);
    const ran = await Deno.stat(join(SCRATCH, d.agent, "project", "skiff-tool-output.txt"))
      .then(() => true, () => false);
    d.notes.push(`after approval the turn finished; tool ran: ${ran}`);
  } catch (err) {
    d.notes.push(`after approval: ${(err as Error).message}`);
  }
}

async function captureAgent(agent: AgentName): Promise<void> {
  const out = join(OUT_ROOT, agent);
  await Deno.mkdir(out, { recursive: true });
  const raw = join(out, "session.raw");
  const llm = await startFakeLlm({ delayMs: DELAY_MS, firstTokenMs: FIRST_MS });
  let driver: AgentDriver | undefined;
  try {
    driver = await startAgent(agent, {
      base: join(SCRATCH, agent),
      llmPort: llm.port,
      socket: `skiff-fx-${agent}-${Deno.pid}`,
      cols: COLS,
      rows: ROWS,
      beforeLaunch: (pane) => pane.pipeTo(raw),
    });
    try {
      await walk(driver, raw);
    } catch (err) {
      const screen = await driver.pane.capture();
      console.error(`--- ${agent} screen at failure (${driver.elapsed()}):\n${screen}---`);
      throw err;
    }
  } finally {
    await driver?.stop();
    await llm.close();
    const notes = driver?.notes ?? [];
    const seen = new Set(llm.requests().map((r) => `${r.method} ${r.path} [${r.userAgent}]`));
    notes.push(`requests to the fake model: ${[...seen].join(", ")}`);
    await Deno.writeTextFile(join(out, "capture-notes.txt"), notes.map((n) => n + "\n").join(""));
    console.log(`  ${agent}: ${notes.join("; ")}`);
  }
}

if (import.meta.main) {
  const wanted = (Deno.args.length ? Deno.args : AGENTS) as AgentName[];
  let failed = 0;
  for (const agent of wanted) {
    if (!AGENTS.includes(agent)) throw new Error(`unknown agent ${agent}`);
    if (!agentInstalled(agent)) {
      console.log(`${agent}: not installed at ${AGENT_VERSIONS[agent].version}; run install.sh`);
      continue;
    }
    console.log(`${agent}: capturing`);
    try {
      await captureAgent(agent);
    } catch (err) {
      failed++;
      console.error(`${agent}: FAILED: ${(err as Error).message}`);
    }
  }
  await Deno.remove(SCRATCH, { recursive: true }).catch(() => {});
  Deno.exit(failed ? 1 : 0);
}
