/**
 * Pane benchmarks against tmux: output throughput until fully parsed,
 * daemon memory per idle pane, and `ls --json` latency.
 *
 * @module
 */

import { join } from "node:path";
import { DaemonClient } from "../lib/client/client.ts";
import { type BenchRow, isolatedEnv, median, rss, skiff, timeSkiff, Tmux } from "./harness.ts";

const THROUGHPUT_MB = 64;
const ROUNDS = 5;
const IDLE_PANES = 100;
const LS_RUNS = 21;

async function makeFile(root: string): Promise<{ path: string; mb: number }> {
  const path = join(root, "big.txt");
  const line = "The quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJ\n";
  const count = Math.ceil((THROUGHPUT_MB << 20) / line.length);
  await Deno.writeTextFile(path, line.repeat(count));
  return { path, mb: line.length * count / (1 << 20) };
}

/** Seconds from starting `cat file` in a pane until skiffd has parsed it all and seen the exit. */
async function skiffCat(socket: string, file: string, cwd: string): Promise<number> {
  const watcher = await DaemonClient.connect(socket);
  const control = await DaemonClient.connect(socket);
  try {
    const events = await watcher.subscribe();
    const start = performance.now();
    const pane = await control.call("pane.new", {
      command: ["cat", file],
      cwd,
      cols: 120,
      rows: 40,
    });
    const deadline = setTimeout(() => watcher.close(), 300_000);
    let seen = false;
    for await (const event of events) {
      if (event.event === "exit" && event.what === "process" && event.pane === pane.id) {
        seen = true;
        break;
      }
    }
    clearTimeout(deadline);
    if (!seen) throw new Error("the cat pane never reported its exit");
    const seconds = (performance.now() - start) / 1000;
    await control.call("pane.kill", { pane: pane.id });
    return seconds;
  } finally {
    watcher.close();
    control.close();
  }
}

/** The same in tmux: until the pane's command has finished and signalled. */
async function tmuxCat(tmux: Tmux, file: string, round: number): Promise<number> {
  const start = performance.now();
  await tmux.run(
    "new-session",
    "-d",
    "-s",
    `cat${round}`,
    "-x",
    "120",
    "-y",
    "40",
    `cat ${file}; tmux wait-for -S done${round}`,
  );
  await tmux.run("wait-for", `done${round}`);
  const seconds = (performance.now() - start) / 1000;
  await tmux.run("kill-session", "-t", `cat${round}`).catch(() => {});
  return seconds;
}

async function waitAll(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs the pane benchmarks and returns table rows. */
export async function benchPanes(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const tmux = new Tmux(root);
  const rows: BenchRow[] = [];
  try {
    const file = await makeFile(root);
    await skiff(["daemon", "start"], env);
    await tmux.run("new-session", "-d", "-s", "base", "-x", "120", "-y", "40", "sh");
    const socket = env.SKIFF_SOCKET;

    // Memory per idle pane first, while both servers are fresh: after the floods,
    // freed memory would be reused and hide the growth.
    // The daemon's (or server's) growth for 100 idle shells.
    const client = await DaemonClient.connect(socket);
    const daemonPid = client.server!.pid;
    const skiffBefore = rss(daemonPid);
    for (let i = 0; i < IDLE_PANES; i++) {
      await client.call("pane.new", { command: ["sh"], cwd: root, name: `idle${i}` });
    }
    await waitAll("skiff prompts", async () => {
      const { panes } = await client.call("pane.list");
      for (const pane of panes) {
        const cap = await client.call("pane.capture", { pane: pane.id });
        if (!/[$#] ?$/.test(cap.text)) return false;
      }
      return true;
    });
    const skiffPerPane = (rss(daemonPid) - skiffBefore) / IDLE_PANES / 1024;

    const tmuxPid = await tmux.pid();
    const tmuxBefore = rss(tmuxPid);
    for (let i = 0; i < IDLE_PANES; i++) await tmux.run("new-window", "-d", "-t", "base", "sh");
    await waitAll("tmux prompts", async () => {
      const out = await tmux.run("list-panes", "-a", "-F", "#{pane_id}");
      for (const id of out.trim().split("\n")) {
        if (!/[$#] ?$/.test((await tmux.run("capture-pane", "-p", "-t", id)).trimEnd())) {
          return false;
        }
      }
      return true;
    });
    const tmuxPerPane = (rss(tmuxPid) - tmuxBefore) / IDLE_PANES / 1024;
    rows.push({
      metric: `daemon memory per idle pane (${IDLE_PANES} shells)`,
      skiff: skiffPerPane,
      tmux: tmuxPerPane,
      unit: "KB",
      higherIsBetter: false,
      target: "< 3072 KB",
    });

    const skiffTimes: number[] = [];
    const tmuxTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      skiffTimes.push(await skiffCat(socket, file.path, root));
      tmuxTimes.push(await tmuxCat(tmux, file.path, round));
      log(
        `  throughput round ${round + 1}: skiff ${skiffTimes.at(-1)!.toFixed(2)} s, tmux ${
          tmuxTimes.at(-1)!.toFixed(2)
        } s`,
      );
    }
    rows.push({
      metric: `output throughput (cat ${file.mb.toFixed(0)} MB, parsed)`,
      skiff: file.mb / median(skiffTimes),
      tmux: file.mb / median(tmuxTimes),
      unit: "MB/s",
      higherIsBetter: true,
      target: ">= tmux",
    });

    // ls latency, with the 100 panes present: a whole CLI process each time.
    const lsTimes: number[] = [];
    const tmuxLsTimes: number[] = [];
    for (let i = 0; i < LS_RUNS; i++) {
      lsTimes.push((await timeSkiff(["ls", "--json"], env)).ms);
      const start = performance.now();
      await tmux.run(
        "list-panes",
        "-a",
        "-F",
        "#{pane_id} #{pane_pid} #{pane_current_command} #{pane_current_path} #{pane_title}",
      );
      tmuxLsTimes.push(performance.now() - start);
    }
    rows.push({
      metric: `ls --json latency, median of ${LS_RUNS} (${IDLE_PANES + 1} panes)`,
      skiff: median(lsTimes),
      tmux: median(tmuxLsTimes),
      unit: "ms",
      higherIsBetter: false,
      target: "< 150 ms",
    });
    client.close();
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await tmux.kill();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  return rows;
}
