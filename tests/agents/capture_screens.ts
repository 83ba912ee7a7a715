/**
 * Captures screen fixtures from the real agent CLIs into
 * `tests/fixtures/screens/<agent>/`.
 *
 * For each agent: start the fake model server, prepare a throwaway HOME, start
 * a private tmux server (120x40) running bash from `env -i`, type the agent's
 * command line, and walk it through idle → busy → done → draft → approval,
 * saving `<state>.ans` (`capture-pane -p -e`) and `<state>.json` for each, plus
 * `session.jsonl`: every byte written to the pane and every key sent to it,
 * each with its time, from the bash prompt to a little after the second turn.
 *
 * Run: `deno run -A tests/agents/capture_screens.ts [--session-only]
 * [--session-file NAME] [--first-token-ms MS] [--word-ms MS] [agent ...]`
 * (install the CLIs first with `tests/agents/install.sh`). `--session-only`
 * records a timed session and leaves the screens alone; `--session-file`
 * names it (default `session.jsonl`); the fake model waits `--first-token-ms`
 * (default 2500) before its first word and `--word-ms` (default 250) between words.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { waitFor } from "../helpers/skiff.ts";
import { AGENT_VERSIONS, agentInstalled, type AgentName, AGENTS } from "./agent_env.ts";
import { type AgentDriver, sleep, startAgent } from "./driver.ts";
import { type Foreground, shellQuote, type TmuxPane } from "./tmux.ts";

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
const TIMED_LOG = join(HERE, "timed_log.ts");
const SCRATCH = "/tmp/skiff-fx";
const COLS = 120;
const ROWS = 40;
const PROMPT = "say hello";
const DRAFT = "draft: rename the parser module next";
const TOOL_PROMPT = "please RUNTOOL now";
const LOG_LIMIT = 4 * 1024 * 1024;

/** Options of one capture run, from the command line. */
interface CaptureOptions {
  /** Write only the timed session, not the `.ans`/`.json` screens. */
  sessionOnly: boolean;
  /** The session file's name in the agent's folder. */
  sessionFile: string;
  /** The fake model's wait before the first word (ms). */
  firstMs: number;
  /** The fake model's wait between words (ms). */
  delayMs: number;
}

let options: CaptureOptions = {
  sessionOnly: false,
  sessionFile: "session.jsonl",
  firstMs: 2500,
  delayMs: 250,
};

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
  if (options.sessionOnly) return;
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

/** Walks the agent through two turns; returns the foreground process seen at idle. */
async function walk(d: AgentDriver): Promise<Foreground> {
  const readyAt = await d.waitReady();
  const idle = await shot(d);
  await save(
    d,
    "idle",
    idle,
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
    `prompt "${PROMPT}"; the fake model waits ${options.firstMs} ms before the first word, ` +
      `then ${options.delayMs} ms per word; captured ${
        lateBusy ? BUSY_CAPTURE_MS[d.agent] : 0
      } ms after ` +
      `the busy marker first showed`,
  );

  await d.waitDone(1);
  await sleep(500);
  await save(d, "done", await shot(d), `idle again after the "${PROMPT}" turn finished`);

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
  // Some quiet after the last turn, so a replay sees the screen settle.
  await sleep(1500);
  return idle.foreground;
}

/** Pipes the pane's output through the timed logger; resolves once the logger runs. */
async function startTimedLog(pane: TmuxPane, log: string): Promise<void> {
  const line = [Deno.execPath(), "run", "-A", "-q", TIMED_LOG, log].map(shellQuote).join(" ");
  await pane.pipeThrough(line);
  await waitFor("the timed logger", async () => {
    const text = await Deno.readTextFile(log).catch(() => "");
    return text.includes('"ready"');
  }, { timeout: 20_000 });
}

/**
 * Writes a session file: a `meta` line, then the pane's output chunks (`out`,
 * base64) and the keys sent (`type` for text, `key` for a tmux key name), each
 * with `t_ms`, milliseconds since the first of them.
 */
async function writeSession(
  d: AgentDriver,
  log: string,
  file: string,
  meta: Record<string, unknown>,
): Promise<void> {
  const outputs = (await Deno.readTextFile(log)).split("\n").filter(Boolean)
    .map((line) => JSON.parse(line) as { at: number; out?: string })
    .filter((entry) => entry.out !== undefined);
  const entries: { at: number; line: Record<string, unknown> }[] = [
    ...outputs.map((o) => ({ at: o.at, line: { out: o.out } })),
    ...d.inputs.map((i) => ({
      at: i.at,
      line: i.type !== undefined ? { type: i.type } : { key: i.key },
    })),
  ];
  // sort() is stable: entries stamped in the same ms keep their order.
  entries.sort((a, b) => a.at - b.at);
  const t0 = entries[0]?.at ?? 0;
  const lines = [
    JSON.stringify({ meta }),
    ...entries.map((e) => JSON.stringify({ t_ms: e.at - t0, ...e.line })),
  ];
  const text = lines.join("\n") + "\n";
  if (text.length > LOG_LIMIT) {
    d.notes.push(`${basename(file)} was ${text.length} bytes (over ${LOG_LIMIT}); not kept`);
    return;
  }
  await Deno.writeTextFile(file, text);
}

async function captureAgent(agent: AgentName): Promise<void> {
  const out = join(OUT_ROOT, agent);
  await Deno.mkdir(out, { recursive: true });
  await Deno.mkdir(SCRATCH, { recursive: true });
  const log = join(SCRATCH, `${agent}.timed.jsonl`);
  const llm = await startFakeLlm({ delayMs: options.delayMs, firstTokenMs: options.firstMs });
  let driver: AgentDriver | undefined;
  try {
    driver = await startAgent(agent, {
      base: join(SCRATCH, agent),
      llmPort: llm.port,
      socket: `skiff-fx-${agent}-${Deno.pid}`,
      cols: COLS,
      rows: ROWS,
      beforeLaunch: (pane) => startTimedLog(pane, log),
    });
    try {
      const foreground = await walk(driver);
      await driver.pane.stopPipe();
      await writeSession(driver, log, join(out, options.sessionFile), {
        agent,
        version: AGENT_VERSIONS[agent].version,
        cols: COLS,
        rows: ROWS,
        foreground: { comm: foreground.comm, argv: foreground.argv },
        fake_model: { first_token_ms: options.firstMs, per_word_ms: options.delayMs },
        turns: 2,
      });
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
    if (!options.sessionOnly) {
      await Deno.writeTextFile(
        join(out, "capture-notes.txt"),
        notes.map((n) => n + "\n").join(""),
      );
    }
    console.log(`  ${agent}: ${notes.join("; ")}`);
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i >= 0) args.splice(i, 1);
    return i >= 0;
  };
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  options = {
    sessionOnly: flag("--session-only"),
    sessionFile: value("--session-file") ?? options.sessionFile,
    firstMs: Number(value("--first-token-ms") ?? options.firstMs),
    delayMs: Number(value("--word-ms") ?? options.delayMs),
  };
  const wanted = (args.length ? args : AGENTS) as AgentName[];
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
