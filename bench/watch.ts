/**
 * The watcher's wake: from a worker's turn end on its screen to the
 * watcher's line submitted in the idle Skiff agent's input box, with the
 * fake agent in both panes (median of 20).
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { type BenchRow, isolatedEnv, sampledRow, skiff, waitUntil } from "./harness.ts";

const ROUNDS = 20;

async function lines(path: string): Promise<number[]> {
  try {
    return (await Deno.readTextFile(path)).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs the watcher benchmark and returns its row. */
export async function benchWatch(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  try {
    env.SKIFF_LEDGER = join(root, "agent", "ledger.db");
    await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      join(env.SKIFF_CONFIG_DIR, "projects.toml"),
      fakeAgentToml().join("\n") + "\n",
    );
    const submits = join(root, "skipper.submits");
    const drawn = join(root, "worker.times");
    await skiff([
      "new",
      "--agent",
      "fake",
      "--name",
      "skipper",
      "--env",
      `FAKE_SUBMITS=${submits}`,
      "--env",
      "FAKE_TURN_MS=200",
    ], env);
    await skiff(
      ["new", "--agent", "fake", "--name", "worker", "--env", `FAKE_TIMES=${drawn}`],
      env,
    );
    for (const name of ["skipper", "worker"]) {
      await skiff(["wait", name, "--until", "idle", "--timeout", "60"], env);
    }
    await skiff(["mark", "skipper", "skiff-agent=1"], env);
    await waitUntil("the watcher", async () => {
      const status = JSON.parse(await skiff(["daemon", "status", "--json"], env));
      return status.watcher?.running === true;
    });
    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = (await lines(submits)).length;
      await skiff([
        "ledger",
        "add",
        "--pane",
        "worker",
        "--task",
        `SLOW 300 round ${round}`,
        "--send",
        "--enter",
      ], env);
      await waitUntil("the line", async () => (await lines(submits)).length > before);
      const end = (await lines(drawn)).at(-1)!;
      const submitted = (await lines(submits)).at(-1)!;
      latencies.push(submitted - end);
      await skiff(["wait", "skipper", "--until", "idle", "--timeout", "30"], env);
      await skiff(["wait", "worker", "--until", "idle", "--timeout", "30"], env);
    }
    log(
      `  worker's turn end → line in the Skiff agent: ${
        latencies.map((n) => n.toFixed(0)).join(" ")
      } ms`,
    );
    const row = sampledRow({
      metric: "watcher: a worker's turn end → the line submitted in the idle Skiff agent",
      unit: "ms",
      higherIsBetter: false,
      target: "< 1000 ms (median of 20)",
    }, { skiff: latencies });
    return [{ ...row, met: row.skiff < 1000 }];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    // The watcher would look for skiffd for ten minutes: end it with the run.
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
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchWatch((line) => console.error(line))));
}
