/**
 * One pane's output throughput against tmux: `cat` of a big file until every
 * byte is parsed into the screen and the pane's exit is seen.
 *
 * @module
 */

import { join } from "node:path";
import { DaemonClient } from "../lib/client/client.ts";
import { type BenchRow, isolatedEnv, sampledRow, skiff, Tmux } from "./harness.ts";

const THROUGHPUT_MB = 64;
const ROUNDS = 5;

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

/** Runs the throughput benchmark and returns its table row. */
export async function benchPanes(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const tmux = new Tmux(root);
  try {
    const file = await makeFile(root);
    await skiff(["daemon", "start"], env);
    await tmux.run("new-session", "-d", "-s", "base", "-x", "120", "-y", "40", "sh");
    const skiffTimes: number[] = [];
    const tmuxTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      skiffTimes.push(await skiffCat(env.SKIFF_SOCKET, file.path, root));
      tmuxTimes.push(await tmuxCat(tmux, file.path, round));
      log(
        `  throughput round ${round + 1}: skiff ${skiffTimes.at(-1)!.toFixed(2)} s, tmux ${
          tmuxTimes.at(-1)!.toFixed(2)
        } s`,
      );
    }
    const row = sampledRow({
      metric: `one pane's output throughput (cat ${file.mb.toFixed(0)} MB, parsed)`,
      unit: "MB/s",
      higherIsBetter: true,
      target: ">= 1.5x tmux every run",
    }, {
      skiff: skiffTimes.map((s) => file.mb / s),
      baseline: tmuxTimes.map((s) => file.mb / s),
      paired: true,
    });
    row.met = row.ratios!.every((r) => r >= 1.5);
    return [row];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await tmux.kill();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchPanes((line) => console.error(line))));
}
