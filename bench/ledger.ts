/**
 * Ledger benchmarks: `skiff ledger ls --json` on a ledger of 10,000 rows
 * (next to the sqlite3 shell reading the same rows as JSON), and adds per
 * second through the library and through the CLI.
 *
 * @module
 */

import { join } from "node:path";
import { openLedger } from "../lib/ledger/mod.ts";
import { type BenchRow, isolatedEnv, median, sh, skiff, timeSkiff } from "./harness.ts";

const ROWS = 10_000;
const RUNS = 11;
const CLI_ADDS = 30;

/** Runs the ledger benchmarks and returns table rows. */
export async function benchLedger(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const path = join(root, "agent", "ledger.db");
  env.SKIFF_LEDGER = path;
  try {
    // Adds through the library: one transaction each, as the CLI does.
    let start = performance.now();
    {
      using ledger = openLedger(path);
      let plan = ledger.add({ task: "Plan 0" });
      for (let i = 1; i < ROWS; i++) {
        if (i % 100 === 0) plan = ledger.add({ task: `Plan ${i}` });
        else {
          ledger.add({
            task: `Task ${i}: review the change set number ${i}`,
            parent: plan.uid,
            pane: { id: `p${i % 7 + 1}`, name: `worker-${i % 7}`, generation: 1 },
          });
        }
      }
    }
    const libraryRate = ROWS / ((performance.now() - start) / 1000);
    log(`  ${ROWS} adds through the library: ${libraryRate.toFixed(0)} per second`);

    const lsTimes: number[] = [];
    const sqliteTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await timeSkiff(["ledger", "ls", "--all", "--json"], env);
      lsTimes.push(run.ms);
      if (i === 0) {
        const rows = JSON.parse(run.stdout).rows.length;
        log(`  ledger ls --json lists ${rows} plans with their tasks`);
      }
      start = performance.now();
      await sh("sqlite3", ["-json", path, "select * from tasks order by id"]);
      sqliteTimes.push(performance.now() - start);
    }

    start = performance.now();
    for (let i = 0; i < CLI_ADDS; i++) {
      await skiff(["ledger", "add", "--task", `CLI task ${i}`], env);
    }
    const cliRate = CLI_ADDS / ((performance.now() - start) / 1000);
    return [
      {
        metric: `ledger ls --json, ${ROWS} rows (vs sqlite3 -json select)`,
        skiff: median(lsTimes),
        tmux: median(sqliteTimes),
        unit: "ms",
        higherIsBetter: false,
      },
      {
        metric: "ledger adds through the library",
        skiff: libraryRate,
        unit: "adds/s",
        higherIsBetter: true,
      },
      {
        metric: "ledger adds through the CLI (a process each)",
        skiff: cliRate,
        unit: "adds/s",
        higherIsBetter: true,
      },
    ];
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}
