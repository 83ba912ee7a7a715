/**
 * Skiff from 10 to 1,000 panes, against tmux on the same machine in the same
 * run: the curve of each figure as the panes grow.
 *
 * At each size N, each tool gets N idle `sh` panes of 120x40 with 10,000
 * lines of scrollback configured, each of which printed 500 lines of history
 * first (`ls -l`-like lines with colours). Then:
 *
 * - memory: the server's RSS growth per pane, once the panes sat idle
 *   (Skiff: until every screen slept, at the default
 *   `[daemon] screen_sleep_seconds`, and memory was given back);
 * - with N/20 panes flooding (`yes`): `skiff ls --json` against
 *   `tmux list-panes -a`, a keystroke's echo in a quiet pane (keys, then
 *   capture until shown) against the same in tmux, and the dashboard's
 *   first full frame;
 * - the watcher's turn end to the line in the Skiff agent, with the floods on;
 * - `kill -9` of skiffd: from the next command to every pane back with its
 *   saved screen (tmux has no equivalent: its panes die with it);
 * - `skiff daemon upgrade`: from the command to the new skiffd answering,
 *   with every pane handed over and a counter pane's output whole across it
 *   (tmux cannot upgrade without ending its sessions).
 *
 * `deno run -A bench/scale.ts [N …]` measures the sizes given; the table goes
 * to stdout, and with `--write DIR` the numbers (`scale.json`) and their plot
 * (`scale.svg`) go to DIR, which is how docs/benchmarks.md got them.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { DaemonClient } from "../lib/client/client.ts";
import {
  type BenchRow,
  isolatedEnv,
  median,
  rss,
  skiff,
  timeSkiff,
  waitForPrompts,
  waitUntil,
} from "./harness.ts";
import { Dash } from "./dash.ts";
import { measureWakes, stopWithWatcher } from "./wake.ts";
import { SCROLLBACK, TmuxScale } from "./scale_tmux.ts";
import { renderScaleSvg, type ScalePoint } from "./scale_plot.ts";

/** The sizes measured when none are given. */
export const SIZES = [10, 100, 200, 500, 1000];
/** Lines each pane prints before it sits idle. */
export const HISTORY_LINES = 500;
const LS_RUNS = 7;
const ECHO_RUNS = 5;
// Opens of the dashboard under floods spread by ±50 ms: a median of three said little.
const DASH_RUNS = 9;
const WAKE_ROUNDS = 7;

/** The command of each pane: its history, then a shell. */
export function historyCommand(lines = HISTORY_LINES): string[] {
  const line = "\\033[34mdrwxr-xr-x\\033[0m  2 dev staff  4096 Dec  5 16:05 " +
    "\\033[1msrc/components/panel_%d\\033[0m -> build/out/panel_%d.js";
  return [
    "sh",
    "-c",
    `i=1; while [ $i -le ${lines} ]; do printf '${line}\\n' $i $i; ` +
    `i=$((i+1)); done; exec sh`,
  ];
}

/** Prints t0, t1, … every 5 ms: its output must come through an upgrade whole. */
const TICKER = ["sh", "-c", "i=0; while :; do echo t$i; i=$((i+1)); sleep 0.005; done"];

/** What one size measured, for Skiff and for tmux. */
interface SizeResult extends ScalePoint {
  lsSamples: { skiff: number[]; tmux: number[] };
  echoSamples: { skiff: number[]; tmux: number[] };
}

async function status(env: Record<string, string>) {
  return JSON.parse(await skiff(["daemon", "status", "--json"], env));
}

/** Types `mark` into a quiet shell and times until a capture shows it; then clears the line. */
async function echoTimes(
  type: (text: string) => Promise<unknown>,
  capture: () => Promise<string>,
  clear: () => Promise<unknown>,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ECHO_RUNS; i++) {
    const mark = `echo${i}mark`;
    const start = performance.now();
    await type(mark);
    const deadline = Date.now() + 60_000;
    while (!(await capture()).includes(mark)) {
      if (Date.now() > deadline) throw new Error(`the echo of ${mark} never showed`);
    }
    times.push(performance.now() - start);
    await clear();
  }
  return times;
}

/** N history panes in a fresh skiffd; returns their ids and the growth per pane (KB). */
async function skiffPanes(
  env: Record<string, string>,
  root: string,
  n: number,
  log: (line: string) => void,
): Promise<{ ids: string[]; perPaneKb: number; sleepSeconds: number }> {
  const client = await DaemonClient.connect(env.SKIFF_SOCKET);
  try {
    const pid = client.server!.pid;
    const before = rss(pid);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const pane = await client.call("pane.new", {
        command: historyCommand(),
        cwd: root,
        name: `h${i}`,
        cols: 120,
        rows: 40,
      });
      ids.push(pane.id);
    }
    await waitForPrompts(client, ids);
    const started = performance.now();
    await waitUntil("every screen asleep", async () => {
      return (await status(env)).screens?.asleep >= n;
    }, 300_000);
    const sleepSeconds = (performance.now() - started) / 1000;
    // Memory freed by the last sleeps is given back at most every 10 s.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const perPaneKb = (rss(pid) - before) / n / 1024;
    log(`  skiff, ${n} panes: ${perPaneKb.toFixed(1)} KB a pane, asleep after ${sleepSeconds}s`);
    return { ids, perPaneKb, sleepSeconds };
  } finally {
    client.close();
  }
}

/** Times the first full frame of `skiff dash` with `n` panes. */
async function dashFrames(env: Record<string, string>, root: string, n: number) {
  const times: number[] = [];
  for (let i = 0; i < DASH_RUNS; i++) {
    const start = performance.now();
    const dash = await Dash.open(env, root);
    try {
      await dash.until((text) => text.includes(`${n} panes`) && text.includes("›"), 60_000);
      times.push(performance.now() - start);
    } finally {
      dash.close();
    }
  }
  return times;
}

/** From `kill -9` of skiffd to every pane back with its saved screen (ms). */
async function killRestore(
  env: Record<string, string>,
  quiet: string[],
): Promise<number> {
  const before = await status(env);
  Deno.kill(before.pid, "SIGKILL");
  const start = performance.now();
  // Any command but status starts skiffd again, which restores the panes.
  await skiff(["ls", "--json"], env);
  await waitUntil("every pane restored", async () => {
    const now = await status(env).catch(() => undefined);
    return now?.pid !== before.pid && now?.running_panes >= before.running_panes;
  }, 300_000);
  const ms = performance.now() - start;
  // The history each pane printed before the crash is on its screen again.
  for (const id of [quiet[0], quiet[Math.floor(quiet.length / 2)], quiet.at(-1)!]) {
    const text = await skiff(["capture", id, "--scrollback", "1000"], env);
    if (!text.includes(`panel_${HISTORY_LINES} `)) {
      throw new Error(`pane ${id} came back without its history`);
    }
  }
  return ms;
}

/** `skiff daemon upgrade` with every pane; checks the ticker lost no line. */
async function upgrade(
  env: Record<string, string>,
  panes: number,
  log: (line: string) => void,
): Promise<number> {
  const { ms, stdout } = await timeSkiff(["daemon", "upgrade", "--json"], env);
  const result = JSON.parse(stdout);
  log(`  upgrade's steps (ms): ${JSON.stringify(result.ms)}`);
  if (result.panes !== panes) throw new Error(`${result.panes} of ${panes} panes handed over`);
  // The counter goes on past the upgrade, with no number missing.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const text = await skiff(["capture", "ticker", "--scrollback", "20000"], env);
  const numbers = [...text.matchAll(/^t(\d+)$/gm)].map((m) => Number(m[1]));
  for (let i = 1; i < numbers.length; i++) {
    if (numbers[i] !== numbers[i - 1] + 1) {
      throw new Error(`the ticker lost output: t${numbers[i - 1]} then t${numbers[i]}`);
    }
  }
  return ms;
}

/** Measures Skiff and tmux at `n` panes. */
async function measureSize(n: number, log: (line: string) => void): Promise<SizeResult> {
  const { root, env } = await isolatedEnv();
  const tmux = new TmuxScale(root);
  try {
    env.SKIFF_LEDGER = join(root, "agent", "ledger.db");
    await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      join(env.SKIFF_CONFIG_DIR, "projects.toml"),
      [`[daemon]`, `scrollback = ${SCROLLBACK}`, "", ...fakeAgentToml()].join("\n") + "\n",
    );
    await skiff(["daemon", "start"], env);
    const mem = await skiffPanes(env, root, n, log);
    const tmuxMem = await tmux.panes(n, historyCommand());
    log(`  tmux, ${n} panes: ${tmuxMem.perPaneKb.toFixed(1)} KB a pane`);

    const flooding = Math.max(1, Math.round(n / 20));
    const quiet = mem.ids.at(-1)!;
    for (const id of mem.ids.slice(0, flooding)) await skiff(["keys", id, "yes", "Enter"], env);
    const ls: number[] = [];
    for (let i = 0; i < LS_RUNS; i++) ls.push((await timeSkiff(["ls", "--json"], env)).ms);
    const echo = await echoTimes(
      (text) => skiff(["keys", quiet, text], env),
      () => skiff(["capture", quiet], env),
      () => skiff(["keys", quiet, "C-u"], env),
    );
    const dash = await dashFrames(env, root, n);
    const wakes = await measureWakes(root, env, { rounds: WAKE_ROUNDS, markSeen: true });
    for (const id of mem.ids.slice(0, flooding)) await skiff(["keys", id, "C-c"], env);
    log(
      `  skiff, ${n} panes, ${flooding} flooding: ls ${median(ls).toFixed(0)} ms, echo ${
        median(echo).toFixed(0)
      } ms, dash ${median(dash).toFixed(0)} ms, watcher ${median(wakes).toFixed(0)} ms`,
    );

    const tmuxFlood = await tmux.flood(
      flooding,
      LS_RUNS,
      (type, capture, clear) => echoTimes(type, capture, clear),
    );
    log(
      `  tmux, ${n} panes: list-panes ${median(tmuxFlood.ls).toFixed(0)} ms, echo ${
        median(tmuxFlood.echo).toFixed(0)
      } ms`,
    );
    const tmuxEnd = performance.now();
    await tmux.kill();
    log(
      `  tmux, ${n} panes: its server ended ${
        (performance.now() - tmuxEnd).toFixed(0)
      } ms after kill-server`,
    );

    await skiff(["new", "--name", "ticker", "--", ...TICKER], env);
    // As on a skiffd that has run a while, the screens that went quiet sleep again first.
    await waitUntil("the screens asleep again", async () => {
      return (await status(env)).screens?.asleep >= n;
    }, 300_000);
    const panes = (await status(env)).panes;
    const upgradeMs = await upgrade(env, panes, log);
    // The same while the floods run again: their screens are awake, with all their history.
    for (const id of mem.ids.slice(0, flooding)) await skiff(["keys", id, "yes", "Enter"], env);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const upgradeFloodingMs = await upgrade(env, panes, log);
    for (const id of mem.ids.slice(0, flooding)) await skiff(["keys", id, "C-c"], env);
    // The panes that never flooded still hold the history they printed.
    const restoreMs = await killRestore(env, mem.ids.slice(flooding));
    log(
      `  skiff, ${n} panes: upgrade ${upgradeMs.toFixed(0)} ms (${
        upgradeFloodingMs.toFixed(0)
      } ms while ${flooding} flood), restore after kill -9 ${restoreMs.toFixed(0)} ms`,
    );
    return {
      panes: n,
      memory: { skiff: mem.perPaneKb, tmux: tmuxMem.perPaneKb },
      ls: { skiff: median(ls), tmux: median(tmuxFlood.ls) },
      echo: { skiff: median(echo), tmux: median(tmuxFlood.echo) },
      dash: median(dash),
      watcher: median(wakes),
      restore: restoreMs,
      upgrade: upgradeMs,
      upgradeFlooding: upgradeFloodingMs,
      lsSamples: { skiff: ls, tmux: tmuxFlood.ls },
      echoSamples: { skiff: echo, tmux: tmuxFlood.echo },
    };
  } finally {
    await stopWithWatcher(root, env);
    await tmux.kill();
    // SKIFF_BENCH_KEEP=1 keeps the run's folders (skiffd's log, the saved screens) to look at.
    if (Deno.env.get("SKIFF_BENCH_KEEP") === "1") log(`  kept ${root}`);
    else await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** The table rows of the largest size, with the targets. */
function rowsOf(result: SizeResult): BenchRow[] {
  const n = result.panes;
  const rows: BenchRow[] = [
    {
      metric: `${n} panes: memory per idle pane (500 lines of history each, all screens asleep)`,
      skiff: result.memory.skiff,
      tmux: result.memory.tmux,
      unit: "KB",
      higherIsBetter: false,
      target: "<= 100 KB",
      met: result.memory.skiff <= 100,
    },
    {
      metric: `${n} panes, ${Math.round(n / 20)} flooding: ls --json (vs tmux list-panes -a)`,
      skiff: result.ls.skiff,
      tmux: result.ls.tmux,
      skiffSamples: result.lsSamples.skiff,
      tmuxSamples: result.lsSamples.tmux,
      unit: "ms",
      higherIsBetter: false,
      target: "<= 1.5x tmux",
      met: result.ls.skiff <= 1.5 * result.ls.tmux,
    },
    {
      metric: `${n} panes, ${Math.round(n / 20)} flooding: a quiet pane's echo`,
      skiff: result.echo.skiff,
      tmux: result.echo.tmux,
      skiffSamples: result.echoSamples.skiff,
      tmuxSamples: result.echoSamples.tmux,
      unit: "ms",
      higherIsBetter: false,
      target: "<= 1.5x tmux",
      met: result.echo.skiff <= 1.5 * result.echo.tmux,
    },
    {
      metric: `${n} panes: the dashboard's first full frame`,
      skiff: result.dash,
      unit: "ms",
      higherIsBetter: false,
      target: "< 300 ms",
      met: result.dash < 300,
    },
    {
      metric: `${n} panes: kill -9 of skiffd to every pane back with its screen`,
      skiff: result.restore,
      unit: "ms",
      higherIsBetter: false,
      target: "< 10000 ms",
      met: result.restore < 10_000,
    },
    {
      metric: `${n + 1} panes: daemon upgrade, its screens asleep (0 bytes lost)`,
      skiff: result.upgrade,
      unit: "ms",
      higherIsBetter: false,
      target: "< 5000 ms",
      met: result.upgrade < 5000,
    },
    {
      metric: `${n + 1} panes: daemon upgrade while ${Math.round(n / 20)} flood (0 bytes lost)`,
      skiff: result.upgradeFlooding,
      unit: "ms",
      higherIsBetter: false,
      target: "< 5000 ms",
      met: result.upgradeFlooding < 5000,
    },
    {
      metric: `${n} panes, flooding: the watcher's turn end to the line (median)`,
      skiff: result.watcher,
      unit: "ms",
      higherIsBetter: false,
      target: "< 1000 ms",
      met: result.watcher < 1000,
    },
  ];
  return rows;
}

/** Runs the curve at `sizes` and returns the rows of the largest size. */
export async function benchScale(
  log: (line: string) => void,
  options: { sizes?: number[]; write?: string } = {},
): Promise<BenchRow[]> {
  const sizes = options.sizes ?? SIZES;
  const results: SizeResult[] = [];
  for (const n of sizes) {
    log(`  scale: ${n} panes…`);
    results.push(await measureSize(n, log));
  }
  const points: ScalePoint[] = results.map(({ lsSamples: _l, echoSamples: _e, ...point }) => point);
  log(scaleTable(points));
  if (options.write) {
    await Deno.mkdir(options.write, { recursive: true });
    await Deno.writeTextFile(
      join(options.write, "scale.json"),
      JSON.stringify({ measured: new Date().toISOString(), points }, null, 2) + "\n",
    );
    await Deno.writeTextFile(join(options.write, "scale.svg"), renderScaleSvg(points));
  }
  return rowsOf(results.at(-1)!);
}

/** The curve as a Markdown table: each figure at each size, Skiff beside tmux. */
export function scaleTable(points: ScalePoint[]): string {
  const f = (n: number) => n >= 100 ? n.toFixed(0) : n.toFixed(1);
  const lines = [
    "| panes | memory/pane KB (skiff / tmux) | ls ms (skiff / tmux) | echo ms (skiff / tmux) | " +
    "dash frame ms | watcher ms | restore ms | upgrade ms (quiet / flooding) |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const p of points) {
    lines.push(
      `| ${p.panes} | ${f(p.memory.skiff)} / ${f(p.memory.tmux)} | ${f(p.ls.skiff)} / ${
        f(p.ls.tmux)
      } | ${f(p.echo.skiff)} / ${f(p.echo.tmux)} | ${f(p.dash)} | ${f(p.watcher)} | ${
        f(p.restore)
      } | ${f(p.upgrade)} / ${f(p.upgradeFlooding)} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  const writeAt = Deno.args.indexOf("--write");
  const write = writeAt === -1 ? undefined : Deno.args[writeAt + 1];
  const sizes = Deno.args.filter((a, i) => /^\d+$/.test(a) && (writeAt === -1 || i !== writeAt + 1))
    .map(Number);
  const rows = await benchScale((line) => console.error(line), {
    sizes: sizes.length > 0 ? sizes : undefined,
    write,
  });
  console.log(renderTable(rows));
  Deno.exit(0);
}
