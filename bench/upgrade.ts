/**
 * `skiff daemon upgrade` with 200 panes: from the command to the new skiffd
 * answering (the command ends once it has heard from the new skiffd), and
 * the longest stall of a pane's output across it. tmux, zellij and shpool
 * cannot upgrade without ending every session, so there is no baseline.
 *
 * The stall is measured twice: inside skiffd (from the moment the panes'
 * output is held to the moment the new skiffd reads it again), and as a
 * viewer sees it: a client follows a pane that prints a line every 5 ms
 * (`attach` with `watch`), attaches again as soon as its connection drops,
 * and the longest gap between two pieces of output it receives is taken.
 *
 * @module
 */

import { DaemonClient } from "../lib/client/client.ts";
import { type BenchRow, isolatedEnv, sampledRow, skiff, timeSkiff, waitUntil } from "./harness.ts";

const PANES = 200;
const ROUNDS = Number(Deno.env.get("SKIFF_BENCH_UPGRADES") ?? 5);
/** Prints t0, t1, … every 5 ms. */
const TICKER = ["sh", "-c", "i=0; while :; do echo t$i; i=$((i+1)); sleep 0.005; done"];

/** Follows a pane's output through drops; records when each piece came. */
class Viewer {
  readonly arrivals: number[] = [];
  #stopped = false;
  #done: Promise<void>;

  constructor(socket: string, pane: string) {
    this.#done = this.#run(socket, pane);
  }

  async #run(socket: string, pane: string): Promise<void> {
    while (!this.#stopped) {
      const client = await DaemonClient.connect(socket).catch(() => undefined);
      if (!client) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      try {
        await client.call("attach", { pane, watch: true }, { raw: true });
        await new Promise<void>((resolve) => {
          client.onRaw((data) => {
            if (data === null || this.#stopped) return resolve();
            this.arrivals.push(performance.now());
          });
        });
      } catch {
        // Dropped before the attach was answered: go again.
      } finally {
        client.close();
      }
    }
  }

  /** The longest gap between two pieces of output since `from` (ms). */
  longestGap(from: number): number {
    const times = this.arrivals.filter((t) => t >= from);
    let longest = 0;
    for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i] - times[i - 1]);
    return longest;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.race([this.#done, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
}

/** Runs the upgrade benchmark and returns its rows. */
export async function benchUpgrade(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  try {
    await skiff(["daemon", "start"], env);
    const client = await DaemonClient.connect(env.SKIFF_SOCKET);
    try {
      await client.call("pane.new", { name: "ticker", command: TICKER, cwd: root });
      for (let i = 1; i < PANES; i++) {
        await client.call("pane.new", { name: `sh${i}`, command: ["sh"], cwd: root });
      }
    } finally {
      client.close();
    }
    await waitUntil("the panes to start", async () => {
      const status = JSON.parse(await skiff(["daemon", "status", "--json"], env));
      return status.running_panes === PANES;
    });
    const totals: number[] = [];
    const held: number[] = [];
    const seen: number[] = [];
    const checks: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const viewer = new Viewer(env.SKIFF_SOCKET, "ticker");
      await waitUntil("the viewer", () => Promise.resolve(viewer.arrivals.length > 20));
      const start = performance.now();
      const { ms, stdout } = await timeSkiff(["daemon", "upgrade", "--json"], env);
      const result = JSON.parse(stdout);
      if (result.panes !== PANES) throw new Error(`only ${result.panes} panes were handed over`);
      // Output flows again to the viewer before the gap is read.
      const count = viewer.arrivals.length;
      await waitUntil(
        "output after the upgrade",
        () => Promise.resolve(viewer.arrivals.length > count + 20),
      );
      await viewer.stop();
      totals.push(ms);
      held.push(result.ms.freeze);
      checks.push(result.ms.check);
      seen.push(viewer.longestGap(start));
      log(
        `  round ${round + 1}: ${ms.toFixed(0)} ms in all, output held ${result.ms.freeze} ms ` +
          `in skiffd, a viewer saw ${seen.at(-1)!.toFixed(0)} ms without output; steps (ms): ${
            JSON.stringify(result.ms)
          }`,
      );
    }
    return [
      sampledRow({
        metric: `upgrade with ${PANES} panes: command to the new skiffd answering`,
        unit: "ms",
        higherIsBetter: false,
        target: "< 2000 ms",
        met: totals.every((ms) => ms < 2000),
      }, { skiff: totals }),
      sampledRow({
        metric: "  of which the new program's check",
        unit: "ms",
        higherIsBetter: false,
      }, { skiff: checks }),
      sampledRow({
        metric: "longest stall of a pane's output: held in skiffd",
        unit: "ms",
        higherIsBetter: false,
        target: "reported",
      }, { skiff: held }),
      sampledRow({
        metric: "longest stall of a pane's output: seen by a viewer",
        unit: "ms",
        higherIsBetter: false,
        target: "reported",
      }, { skiff: seen }),
    ];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => "");
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchUpgrade((line) => console.error(line))));
}
