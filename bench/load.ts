/**
 * Skiff under load, against tmux on the same machine: memory per idle pane at
 * 200 shells, then `yes` in 20 of them while `ls --json`, a keystroke's echo
 * in a quiet pane and a guarded send to an idle agent are timed.
 *
 * Each tool floods on its own (Skiff first, then tmux), so neither one's
 * flood takes CPU from the other's measurements.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { DaemonClient } from "../lib/client/client.ts";
import {
  type BenchRow,
  isolatedEnv,
  PROMPT,
  rss,
  sampledRow,
  skiff,
  timeSkiff,
  Tmux,
  waitForPrompts,
  waitUntil,
} from "./harness.ts";

/** Idle shells in each tool. */
export const SHELLS = 200;
/** How many of them flood. */
export const FLOODING = 20;
const LS_RUNS = 11;
const ECHO_RUNS = 7;
const SEND_RUNS = 5;
/** How long the panes sit idle before memory is read: skiffd gives a burst's garbage back once output settles. */
const IDLE_MS = 5000;

/** Timings taken while one tool floods. */
interface FloodTimes {
  ls: number[];
  echo: number[];
}

/** What skiffd's screen saves cost while the panes flooded (from `daemon status`). */
interface SaveCost {
  /** Milliseconds per save, on average. */
  perSave: number;
  /** The longest save, in ms. */
  longest: number;
  /** Share of the wall-clock time spent saving, in percent. */
  share: number;
}

type ScreenStats = { saves: number; total_ms: number; max_ms: number };

async function screenStats(env: Record<string, string>): Promise<ScreenStats> {
  const status = JSON.parse(await skiff(["daemon", "status", "--json"], env));
  return status.screens ?? { saves: 0, total_ms: 0, max_ms: 0 };
}

async function configureFakeAgent(env: Record<string, string>): Promise<void> {
  await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
  await Deno.writeTextFile(
    join(env.SKIFF_CONFIG_DIR, "projects.toml"),
    fakeAgentToml().join("\n") + "\n",
  );
}

/** Starts `SHELLS` idle shells in skiffd; returns their ids and the growth per pane (KB). */
async function skiffShells(
  client: DaemonClient,
  cwd: string,
): Promise<{ ids: string[]; perPaneKb: number }> {
  const pid = client.server!.pid;
  const before = rss(pid);
  const ids: string[] = [];
  for (let i = 0; i < SHELLS; i++) {
    const pane = await client.call("pane.new", {
      command: ["sh"],
      cwd,
      name: `idle${i}`,
    });
    ids.push(pane.id);
  }
  await waitForPrompts(client, ids);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return { ids, perPaneKb: (rss(pid) - before) / SHELLS / 1024 };
}

/** The same in tmux: one session whose windows are the shells. */
async function tmuxShells(tmux: Tmux): Promise<{ ids: string[]; perPaneKb: number }> {
  await tmux.run("new-session", "-d", "-s", "base", "-x", "120", "-y", "40", "sh");
  const pid = await tmux.pid();
  const before = rss(pid);
  for (let i = 1; i < SHELLS; i++) await tmux.run("new-window", "-d", "-t", "base", "sh");
  const ids = (await tmux.run("list-panes", "-s", "-t", "base", "-F", "#{pane_id}"))
    .trim().split("\n");
  await waitUntil("tmux prompts", async () => {
    for (const id of ids) {
      if (!PROMPT.test((await tmux.run("capture-pane", "-p", "-t", id)).trimEnd())) return false;
    }
    return true;
  });
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return { ids, perPaneKb: (rss(pid) - before) / (SHELLS - 1) / 1024 };
}

/** Types `mark` into a quiet shell and times until a capture shows it; then clears the line. */
async function echoTime(
  type: (text: string) => Promise<unknown>,
  capture: () => Promise<string>,
  clear: () => Promise<unknown>,
  mark: string,
): Promise<number> {
  const start = performance.now();
  await type(mark);
  const deadline = Date.now() + 60_000;
  while (!(await capture()).includes(mark)) {
    if (Date.now() > deadline) throw new Error(`the echo of ${mark} never showed`);
  }
  const ms = performance.now() - start;
  await clear();
  return ms;
}

async function skiffFlood(
  env: Record<string, string>,
  ids: string[],
  agent: string,
  log: (line: string) => void,
): Promise<FloodTimes & { send: number[]; saves: SaveCost }> {
  const flooding = ids.slice(0, FLOODING);
  const quiet = ids.at(-1)!;
  for (const id of flooding) await skiff(["keys", id, "yes", "Enter"], env);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const savesBefore = await screenStats(env);
  const floodStart = performance.now();
  const ls: number[] = [];
  for (let i = 0; i < LS_RUNS; i++) {
    const run = await timeSkiff(["ls", "--json"], env);
    const count = JSON.parse(run.stdout).panes.length;
    if (count !== SHELLS + 1) throw new Error(`ls listed ${count} panes`);
    ls.push(run.ms);
  }
  log(`  skiff ls --json while ${FLOODING} flood: ${ls.map((n) => n.toFixed(0)).join(" ")} ms`);
  const echo: number[] = [];
  for (let i = 0; i < ECHO_RUNS; i++) {
    echo.push(
      await echoTime(
        (text) => skiff(["keys", quiet, text], env),
        () => skiff(["capture", quiet], env),
        () => skiff(["keys", quiet, "C-u"], env),
        `echo${i}mark`,
      ),
    );
  }
  log(`  skiff echo while ${FLOODING} flood: ${echo.map((n) => n.toFixed(0)).join(" ")} ms`);
  const send: number[] = [];
  for (let i = 0; i < SEND_RUNS; i++) {
    const out = JSON.parse(
      await skiff(["send", agent, `SLOW 100 flood task ${i}`, "--enter", "--json"], env),
    );
    if (!out.turn_started) throw new Error("the send started no turn");
    send.push(out.elapsed_ms - out.agent_wait_ms);
    await skiff(["wait", agent, "--until", "idle", "--timeout", "60"], env);
  }
  log(`  skiff send overhead while ${FLOODING} flood: ${send.join(" ")} ms`);
  const savesAfter = await screenStats(env);
  const floodMs = performance.now() - floodStart;
  const saved = savesAfter.saves - savesBefore.saves;
  const spent = savesAfter.total_ms - savesBefore.total_ms;
  const saves: SaveCost = {
    perSave: saved > 0 ? spent / saved : 0,
    longest: savesAfter.max_ms,
    share: 100 * spent / floodMs,
  };
  log(
    `  screen saves while ${FLOODING} flood: ${saved} in ${(floodMs / 1000).toFixed(1)} s, ${
      saves.perSave.toFixed(2)
    } ms each, longest ${saves.longest.toFixed(1)} ms, ${saves.share.toFixed(2)}% of the time`,
  );
  const floodScreen = await skiff(["capture", flooding[0]], env);
  if (!floodScreen.includes("y\ny\ny")) throw new Error("the flooding pane shows no flood");
  for (const id of flooding) await skiff(["keys", id, "C-c"], env);
  return { ls, echo, send, saves };
}

async function tmuxFlood(
  tmux: Tmux,
  ids: string[],
  log: (line: string) => void,
): Promise<FloodTimes> {
  const flooding = ids.slice(0, FLOODING);
  const quiet = ids.at(-1)!;
  for (const id of flooding) await tmux.run("send-keys", "-t", id, "yes", "Enter");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const ls: number[] = [];
  for (let i = 0; i < LS_RUNS; i++) {
    const start = performance.now();
    await tmux.run(
      "list-panes",
      "-a",
      "-F",
      "#{pane_id} #{pane_pid} #{pane_current_command} #{pane_current_path} #{pane_title}",
    );
    ls.push(performance.now() - start);
  }
  log(`  tmux list-panes while ${FLOODING} flood: ${ls.map((n) => n.toFixed(0)).join(" ")} ms`);
  const echo: number[] = [];
  for (let i = 0; i < ECHO_RUNS; i++) {
    echo.push(
      await echoTime(
        (text) => tmux.run("send-keys", "-t", quiet, "-l", text),
        () => tmux.run("capture-pane", "-p", "-t", quiet),
        () => tmux.run("send-keys", "-t", quiet, "C-u"),
        `echo${i}mark`,
      ),
    );
  }
  log(`  tmux echo while ${FLOODING} flood: ${echo.map((n) => n.toFixed(0)).join(" ")} ms`);
  for (const id of flooding) await tmux.run("send-keys", "-t", id, "C-c");
  return { ls, echo };
}

/** Runs the load benchmarks and returns table rows. */
export async function benchLoad(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const tmux = new Tmux(root);
  try {
    await configureFakeAgent(env);
    await skiff(["daemon", "start"], env);
    const client = await DaemonClient.connect(env.SKIFF_SOCKET);
    // Memory first, on fresh servers: freed memory after the floods would hide growth.
    const skiffIdle = await skiffShells(client, root);
    const tmuxIdle = await tmuxShells(tmux);
    log(
      `  memory per idle pane: skiff ${skiffIdle.perPaneKb.toFixed(0)} KB, tmux ${
        tmuxIdle.perPaneKb.toFixed(0)
      } KB`,
    );
    await skiff(["new", "--agent", "fake", "--name", "agent"], env);
    await skiff(["wait", "agent", "--until", "idle", "--timeout", "60"], env);
    const skiffTimes = await skiffFlood(env, skiffIdle.ids, "agent", log);
    const tmuxTimes = await tmuxFlood(tmux, tmuxIdle.ids, log);
    client.close();
    const lsRow = sampledRow({
      metric: `ls --json, ${SHELLS + 1} panes while ${FLOODING} flood (vs tmux list-panes -a)`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 200 ms, < 3x tmux",
    }, { skiff: skiffTimes.ls, baseline: tmuxTimes.ls });
    lsRow.met = lsRow.skiff < 200 && lsRow.skiff < 3 * lsRow.tmux!;
    const echoRow = sampledRow({
      metric: `keystroke echo in a quiet pane while ${FLOODING} flood (keys, capture until shown)`,
      unit: "ms",
      higherIsBetter: false,
      target: "<= tmux",
    }, { skiff: skiffTimes.echo, baseline: tmuxTimes.echo });
    echoRow.met = echoRow.skiff <= echoRow.tmux!;
    const sendRow = sampledRow({
      metric: `guarded send to an idle agent while ${FLOODING} flood: overhead`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 100 ms",
    }, { skiff: skiffTimes.send });
    sendRow.met = sendRow.skiff < 100;
    return [
      {
        metric: `daemon memory per idle pane (${SHELLS} shells)`,
        skiff: skiffIdle.perPaneKb,
        tmux: tmuxIdle.perPaneKb,
        unit: "KB",
        higherIsBetter: false,
        target: "< 500 KB",
        met: skiffIdle.perPaneKb < 500,
      },
      lsRow,
      echoRow,
      sendRow,
      {
        metric: `screen saves while ${FLOODING} flood: time per save (in the background)`,
        skiff: skiffTimes.saves.perSave,
        unit: "ms",
        higherIsBetter: false,
        target: "< 15 ms (a round's budget)",
        met: skiffTimes.saves.perSave < 15,
      },
      {
        metric: `screen saves while ${FLOODING} flood: share of skiffd's time`,
        skiff: skiffTimes.saves.share,
        unit: "%",
        higherIsBetter: false,
        target: "< 5 %",
        met: skiffTimes.saves.share < 5,
      },
    ];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await tmux.kill();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchLoad((line) => console.error(line))));
}
