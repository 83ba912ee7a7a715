/**
 * Agent benchmarks with the fake agent: how long after a finished turn
 * reaches the screen the `turn-end` event fires (screen rules alone, and with
 * hooks), and what `send` costs beyond the agent's own delays, next to
 * tmux's unguarded `send-keys`. Run alone: `deno run -A bench/agents.ts`.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { DaemonClient } from "../lib/client/client.ts";
import { type BenchRow, isolatedEnv, MAIN, median, renderTable, skiff, Tmux } from "./harness.ts";

/** Turns per latency row: the row reports their median, min and max. */
const TURNS = 20;

/** `min … max of N` for a row's notes. */
function spread(values: number[]): string {
  const fmt = (n: number) => n.toFixed(0);
  return `min ${fmt(Math.min(...values))}, max ${fmt(Math.max(...values))} of ${values.length}`;
}

async function configure(root: string, env: Record<string, string>): Promise<void> {
  await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
  await Deno.writeTextFile(
    join(env.SKIFF_CONFIG_DIR, "projects.toml"),
    fakeAgentToml().join("\n") + "\n",
  );
  void root;
}

/** Measures turn-end latency for one pane; returns milliseconds per turn. */
async function turnEndLatency(
  socket: string,
  pane: string,
  timesFile: string,
): Promise<{ latencies: number[]; overheads: number[] }> {
  const watcher = await DaemonClient.connect(socket);
  const control = await DaemonClient.connect(socket);
  const events = await watcher.subscribe();
  const latencies: number[] = [];
  const overheads: number[] = [];
  try {
    for (let i = 0; i < TURNS; i++) {
      const sent = await control.call("pane.send", {
        pane,
        text: `SLOW 200 turn ${i}`,
        enter: true,
      });
      overheads.push(sent.elapsed_ms - sent.agent_wait_ms);
      // next() rather than for-await: breaking out of for-await would end the stream.
      for (;;) {
        const { value: event, done } = await events.next();
        if (done) throw new Error("the event stream ended");
        if (event.event === "turn-end" && event.name === pane) {
          const drawn = (await Deno.readTextFile(timesFile)).trim().split("\n").map(Number).at(-1)!;
          latencies.push(Date.parse(event.time) - drawn);
          break;
        }
      }
      await control.call("pane.seen", { pane });
    }
  } finally {
    watcher.close();
    control.close();
  }
  return { latencies, overheads };
}

/** Runs the agent benchmarks and returns table rows. */
export async function benchAgents(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const tmux = new Tmux(root);
  try {
    await configure(root, env);
    const screenTimes = join(root, "screen.times");
    const hookTimes = join(root, "hook.times");
    const hook = `${Deno.execPath()} run -A -q ${MAIN} hook fake`;
    await skiff([
      "new",
      "--agent",
      "fake",
      "--name",
      "screen",
      "--env",
      `FAKE_TIMES=${screenTimes}`,
    ], env);
    await skiff([
      "new",
      "--agent",
      "fake",
      "--name",
      "hooked",
      "--env",
      `FAKE_TIMES=${hookTimes}`,
      "--env",
      `FAKE_HOOK=${hook}`,
    ], env);
    for (const name of ["screen", "hooked"]) {
      await skiff(["wait", name, "--until", "idle", "--timeout", "60"], env);
    }
    const socket = env.SKIFF_SOCKET;
    const screen = await turnEndLatency(socket, "screen", screenTimes);
    log(`  turn-end latency (screen): ${screen.latencies.map((n) => n.toFixed(0)).join(" ")} ms`);
    const hooked = await turnEndLatency(socket, "hooked", hookTimes);
    log(`  turn-end latency (hooks): ${hooked.latencies.map((n) => n.toFixed(0)).join(" ")} ms`);

    // tmux's send-keys types without any check: the floor for comparison.
    await tmux.run("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "cat");
    const tmuxTimes: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const start = performance.now();
      await tmux.run("send-keys", "-t", "t", "-l", `turn ${i}`);
      await tmux.run("send-keys", "-t", "t", "Enter");
      tmuxTimes.push(performance.now() - start);
    }
    return [
      {
        metric: "turn-end event after the screen shows it (screen rules)",
        skiff: median(screen.latencies),
        unit: "ms",
        higherIsBetter: false,
        target: `under 250 ms; ${spread(screen.latencies)}`,
      },
      {
        metric: "turn-end event after the screen shows it (with hooks)",
        skiff: median(hooked.latencies),
        unit: "ms",
        higherIsBetter: false,
        target: spread(hooked.latencies),
      },
      {
        metric: "send overhead beyond the agent's delays (vs tmux send-keys)",
        skiff: median([...screen.overheads, ...hooked.overheads]),
        tmux: median(tmuxTimes),
        unit: "ms",
        higherIsBetter: false,
      },
    ];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await tmux.kill();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

// `deno run -A bench/agents.ts` runs these rows alone.
if (import.meta.main) {
  console.log(renderTable(await benchAgents((line) => console.error(line))));
}
