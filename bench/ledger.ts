/**
 * Ledger benchmarks: `skiff ledger ls --json` on a ledger of 10,000 rows
 * next to the sqlite3 shell reading the same rows as JSON; `skiff ledger add`
 * (a process each) next to `skiff ls --json`; and adds through the library.
 *
 * @module
 */

import { join } from "node:path";
import { openLedger } from "../lib/ledger/mod.ts";
import { type BenchRow, isolatedEnv, sampledRow, sh, skiff, timeSkiff } from "./harness.ts";

const ROWS = 10_000;
const RUNS = 11;

/** Fills the ledger with plans of 99 tasks each; returns adds per second. */
function fill(path: string): number {
  const start = performance.now();
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
  return ROWS / ((performance.now() - start) / 1000);
}

/** Runs the ledger benchmarks and returns table rows. */
export async function benchLedger(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  const path = join(root, "agent", "ledger.db");
  env.SKIFF_LEDGER = path;
  try {
    const libraryRate = fill(path);
    log(`  ${ROWS} adds through the library: ${libraryRate.toFixed(0)} per second`);

    // No skiffd yet: ls reads the file alone, as sqlite3 does.
    const lsTimes: number[] = [];
    const sqliteTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await timeSkiff(["ledger", "ls", "--all", "--json"], env);
      lsTimes.push(run.ms);
      if (i === 0) {
        const rows = JSON.parse(run.stdout).rows.length;
        log(`  ledger ls --json lists ${rows} plans with their tasks`);
      }
      const start = performance.now();
      await sh("sqlite3", ["-json", path, "select * from tasks order by id"]);
      sqliteTimes.push(performance.now() - start);
    }
    const lsRow = sampledRow({
      metric: `ledger ls --json, ${ROWS} rows (vs sqlite3 -json select)`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 2x sqlite3",
    }, { skiff: lsTimes, baseline: sqliteTimes, paired: true });
    lsRow.met = lsRow.skiff < 2 * lsRow.tmux!;

    // Each add is a process, as an agent runs it; next to ls --json against a running skiffd.
    await skiff(["daemon", "start"], env);
    const addTimes: number[] = [];
    const paneLsTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      addTimes.push((await timeSkiff(["ledger", "add", "--task", `CLI task ${i}`], env)).ms);
      paneLsTimes.push((await timeSkiff(["ls", "--json"], env)).ms);
    }
    const addRow = sampledRow({
      metric: "ledger add, a process each (vs skiff ls --json)",
      unit: "ms",
      higherIsBetter: false,
      target: "each < 2x ls --json",
    }, { skiff: addTimes, baseline: paneLsTimes, paired: true });
    // Each add against the ls run beside it, so a burst of load hits both.
    addRow.met = addRow.ratios!.every((ratio) => ratio < 2);
    log(`  ledger add: ${addTimes.map((n) => n.toFixed(0)).join(" ")} ms`);
    return [
      lsRow,
      addRow,
      {
        metric: "ledger adds through the library",
        skiff: libraryRate,
        unit: "adds/s",
        higherIsBetter: true,
      },
    ];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchLedger((line) => console.error(line))));
}
