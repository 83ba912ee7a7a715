/**
 * The watcher's wake as the benches measure it (`bench/watch.ts` with a
 * local worker, `bench/hosts.ts` with one on a host): a fake Skiff agent
 * that records when each line was submitted, a fake worker that records
 * when each turn ended, and rounds of a task sent to the worker; each
 * round's latency is from the turn end to the line. Also the end of such
 * a run, which must stop the watcher along with skiffd.
 *
 * @module
 */

import { join } from "node:path";
import { newFakeAgentArgs } from "../tests/helpers/fake_agent.ts";
import { skiff, waitUntil } from "./harness.ts";

/** The numbers a fake agent appended to `path`, one a line (none before the file exists). */
async function numbers(path: string): Promise<number[]> {
  try {
    return (await Deno.readTextFile(path)).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Options for {@linkcode measureWakes}. */
export interface WakeOptions {
  /** How many rounds. */
  rounds: number;
  /** The host of projects.toml the worker runs on (default: this machine). */
  host?: string;
  /** Mark the worker seen after each round. */
  markSeen?: boolean;
}

/**
 * Starts the Skiff agent `skipper` and the worker `worker` (fake agents) in
 * the Skiff of `env`, whose folders are under `root`, waits for the watcher
 * and returns each round's latency from the worker's turn end to the
 * watcher's line submitted in the Skiff agent (ms).
 */
export async function measureWakes(
  root: string,
  env: Record<string, string>,
  options: WakeOptions,
): Promise<number[]> {
  const submits = join(root, "skipper.submits");
  const drawn = join(root, "worker.times");
  const worker = options.host ? `${options.host}:worker` : "worker";
  await skiff(
    newFakeAgentArgs("skipper", { env: { FAKE_SUBMITS: submits, FAKE_TURN_MS: "200" } }),
    env,
  );
  await skiff(
    newFakeAgentArgs("worker", { host: options.host, env: { FAKE_TIMES: drawn } }),
    env,
  );
  for (const pane of ["skipper", worker]) {
    await skiff(["wait", pane, "--until", "idle", "--timeout", "60"], env);
  }
  await skiff(["mark", "skipper", "skiff-agent=1"], env);
  await waitUntil("the watcher", async () => {
    const status = JSON.parse(await skiff(["daemon", "status", "--json"], env));
    return status.watcher?.running === true;
  });
  const latencies: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const before = (await numbers(submits)).length;
    await skiff([
      "ledger",
      "add",
      "--pane",
      worker,
      "--task",
      `SLOW 300 round ${round}`,
      "--send",
      "--enter",
    ], env);
    await waitUntil("the line", async () => (await numbers(submits)).length > before);
    const end = (await numbers(drawn)).at(-1)!;
    const submitted = (await numbers(submits)).at(-1)!;
    latencies.push(submitted - end);
    if (options.markSeen) await skiff(["seen", worker], env);
    await skiff(["wait", "skipper", "--until", "idle", "--timeout", "30"], env);
    await skiff(["wait", worker, "--until", "idle", "--timeout", "30"], env);
  }
  return latencies;
}

/** Stops skiffd of `env` and its watcher, which would otherwise look for skiffd for ten minutes. */
export async function stopWithWatcher(root: string, env: Record<string, string>): Promise<void> {
  await skiff(["daemon", "stop"], env).catch(() => {});
  const pid = Number(
    (await Deno.readTextFile(join(root, "run", "skiffd.watch.lock")).catch(() => "")).trim(),
  );
  if (pid > 0) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  }
}
