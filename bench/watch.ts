/**
 * The watcher's wake: from a worker's turn end on its screen to the
 * watcher's line submitted in the idle Skiff agent's input box, with the
 * fake agent in both panes (median of 20).
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { type BenchRow, isolatedEnv, timeRow } from "./harness.ts";
import { measureWakes, stopWithWatcher } from "./wake.ts";

const ROUNDS = 20;

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
    const latencies = await measureWakes(root, env, { rounds: ROUNDS });
    log(
      `  worker's turn end → line in the Skiff agent: ${
        latencies.map((n) => n.toFixed(0)).join(" ")
      } ms`,
    );
    const row = timeRow({
      metric: "watcher: a worker's turn end → the line submitted in the idle Skiff agent",
      target: "< 1000 ms (median of 20)",
    }, { skiff: latencies });
    return [{ ...row, met: row.skiff < 1000 }];
  } finally {
    await stopWithWatcher(root, env);
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchWatch((line) => console.error(line))));
}
