/**
 * Captures the screens of moments that the walk in `capture_screens.ts`
 * does not reach, from the real agent CLIs, into
 * `tests/fixtures/screens/<agent>/<moment>.ans` and `.json`:
 *
 * - `codex/backfill`: Codex waits at its start for another Codex's state
 *   database backfill, and says so where its input box is (`state db
 *   backfill is running at …`). Made by a first start (which creates the
 *   database), then marking the backfill running in it, as a Codex that
 *   runs it does, and starting again.
 * - `gemini/clearing`: Gemini CLI runs `/clear`, which waits for its
 *   SessionEnd and SessionStart hooks (named `skiff EVENT`, as Skiff names
 *   them; here each sleeps 3 s) while its status row says `Executing Hook:`.
 * - `qwen/clear-typed` and `qwen/clearing`: Qwen Code with `/clear` typed in
 *   its input box, then just after its Enter, while the clear runs: its
 *   screen is cleared at once and shows an empty input box, nothing else,
 *   until its SessionStart hook has run (it drops what is typed meanwhile).
 *
 * Run: `deno run -A tests/agents/capture_moments.ts [agent ...]` (install the
 * CLIs first with `tests/agents/install.sh`).
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { AGENT_VERSIONS, agentInstalled, type AgentName, prepareAgent } from "./agent_env.ts";
import { type AgentDriver, SCRIPTS, sleep, startAgent } from "./driver.ts";
import { shellQuote, TmuxPane } from "./tmux.ts";
import { waitFor } from "../helpers/skiff.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT_ROOT = join(HERE, "..", "fixtures", "screens");
const SCRATCH = "/tmp/skiff-moments";
const COLS = 120;
const ROWS = 40;

/** Saves what `pane` shows as `<agent>/<moment>.ans` with its `.json`. */
async function save(
  pane: TmuxPane,
  place: { agent: AgentName; moment: string },
  notes: string,
): Promise<void> {
  const [ans, title, foreground] = await Promise.all([
    pane.capture(true),
    pane.title(),
    pane.foreground(),
  ]);
  const out = join(OUT_ROOT, place.agent);
  await Deno.writeTextFile(join(out, `${place.moment}.ans`), ans);
  const meta = {
    agent: place.agent,
    version: AGENT_VERSIONS[place.agent].version,
    state: place.moment,
    cols: COLS,
    rows: ROWS,
    title,
    foreground,
    notes,
  };
  await Deno.writeTextFile(
    join(out, `${place.moment}.json`),
    JSON.stringify(meta, null, 2) + "\n",
  );
  console.log(`  ${place.agent}/${place.moment} saved`);
}

/** Waits until the pane's plain screen matches `pattern`. */
function showing(pane: TmuxPane, pattern: RegExp, timeout = 90_000): Promise<true> {
  return waitFor(`${pattern}`, async () => pattern.test(await pane.capture()) || undefined, {
    timeout,
    interval: 100,
  });
}

/** Codex waiting at its start for another Codex's backfill of its state database. */
async function codexBackfill(llmPort: number): Promise<void> {
  const base = join(SCRATCH, "codex");
  await Deno.remove(base, { recursive: true }).catch(() => {});
  const launch = await prepareAgent("codex", {
    home: join(base, "home"),
    workdir: join(base, "project"),
    llmPort,
  });
  const line = [launch.command, ...launch.args].map(shellQuote).join(" ");
  const start = async (socket: string) => {
    const pane = await TmuxPane.start({
      socket,
      cols: COLS,
      rows: ROWS,
      cwd: join(base, "project"),
      env: { ...launch.env, PS1: "$ " },
    });
    await sleep(300);
    await pane.type(line);
    await pane.keys("Enter");
    return pane;
  };
  // The first start makes the state database and runs its backfill.
  const first = await start(`skiff-moments-codex-a-${Deno.pid}`);
  await showing(first, SCRIPTS.codex.ready);
  await sleep(2000);
  await first.kill();
  const codexHome = launch.env.CODEX_HOME;
  const file = [...Deno.readDirSync(codexHome)].map((e) => e.name)
    .find((name) => /^state_\d+\.sqlite$/.test(name));
  if (!file) throw new Error(`no state database in ${codexHome}`);
  const db = new DatabaseSync(join(codexHome, file));
  const now = Math.floor(Date.now() / 1000);
  db.prepare(
    "UPDATE backfill_state SET status = 'running', last_success_at = NULL, updated_at = ?",
  ).run(now);
  const second = await start(`skiff-moments-codex-b-${Deno.pid}`);
  try {
    await showing(second, /state db backfill is running at/);
    await sleep(1000);
    await save(
      second,
      { agent: "codex", moment: "backfill" },
      "a second start while the state database's backfill is marked running (as another " +
        "Codex's start leaves it): Codex waits, and says so where its input box is",
    );
  } finally {
    db.prepare("UPDATE backfill_state SET status = 'complete', last_success_at = ?").run(now);
    db.close();
    await second.kill();
  }
}

/** Gemini CLI while a `/clear` waits for its hooks. */
async function geminiClearing(llmPort: number): Promise<void> {
  const base = join(SCRATCH, "gemini");
  const hook = join(SCRATCH, "slow-hook.sh");
  await Deno.mkdir(SCRATCH, { recursive: true });
  await Deno.writeTextFile(hook, "#!/bin/sh\ncat >/dev/null\nsleep 3\necho '{}'\n");
  await Deno.chmod(hook, 0o755);
  let driver: AgentDriver | undefined;
  try {
    driver = await startAgent("gemini", {
      base,
      llmPort,
      hooks: hook,
      socket: `skiff-moments-gemini-${Deno.pid}`,
      cols: COLS,
      rows: ROWS,
    });
    await driver.waitReady();
    // Its start runs the SessionStart hook too: wait until it ended.
    await showing(driver.pane, /^(?![\s\S]*Executing Hook)[\s\S]*Type your message/);
    await driver.typeVisible("/clear");
    await sleep(400);
    await driver.key("Enter");
    await showing(driver.pane, /Executing Hooks?: skiff Session/, 10_000);
    await sleep(500);
    await save(
      driver.pane,
      { agent: "gemini", moment: "clearing" },
      "/clear, while it waits for its SessionEnd and SessionStart hooks (named `skiff EVENT`, " +
        "as Skiff names them; each sleeps 3 s here)",
    );
  } finally {
    await driver?.stop();
  }
}

/** Qwen Code with `/clear` typed, then just after its Enter, while the clear runs. */
async function qwenClearing(llmPort: number): Promise<void> {
  const base = join(SCRATCH, "qwen");
  let driver: AgentDriver | undefined;
  try {
    driver = await startAgent("qwen", {
      base,
      llmPort,
      socket: `skiff-moments-qwen-${Deno.pid}`,
      cols: COLS,
      rows: ROWS,
    });
    await driver.waitReady();
    await sleep(2000);
    await driver.typeVisible("/clear");
    await sleep(400);
    await save(
      driver.pane,
      { agent: "qwen", moment: "clear-typed" },
      "/clear typed into the input box, its command list open below it, before the Enter",
    );
    await driver.key("Enter");
    await showing(driver.pane, /^(?![\s\S]*\/clear)[\s\S]*Type your message/, 5000);
    await save(
      driver.pane,
      { agent: "qwen", moment: "clearing" },
      "just after the Enter of /clear: the screen is cleared and shows an empty input box, " +
        "while Qwen Code still resets its chat and has its SessionStart hook to run",
    );
  } finally {
    await driver?.stop();
  }
}

const MOMENTS: Partial<Record<AgentName, (llmPort: number) => Promise<void>>> = {
  codex: codexBackfill,
  gemini: geminiClearing,
  qwen: qwenClearing,
};

if (import.meta.main) {
  const wanted = (Deno.args.length ? Deno.args : Object.keys(MOMENTS)) as AgentName[];
  let failed = 0;
  const llm = await startFakeLlm({ delayMs: 60 });
  try {
    for (const agent of wanted) {
      const capture = MOMENTS[agent];
      if (!capture) throw new Error(`no moments to capture for ${agent}`);
      if (!agentInstalled(agent)) {
        console.log(`${agent}: not installed at ${AGENT_VERSIONS[agent].version}; run install.sh`);
        continue;
      }
      console.log(`${agent}: capturing`);
      try {
        await capture(llm.port);
      } catch (error) {
        failed++;
        console.error(`${agent}: FAILED: ${(error as Error).message}`);
      }
    }
  } finally {
    await llm.close();
    await Deno.remove(SCRATCH, { recursive: true }).catch(() => {});
  }
  Deno.exit(failed ? 1 : 0);
}
