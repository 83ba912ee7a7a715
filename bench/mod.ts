/**
 * `deno task bench`: Skiff measured against tmux on this machine, in the same
 * run, reported as ratios. Numbers vary with load; compare ratios.
 *
 * @module
 */

import { type BenchRow, renderTable } from "./harness.ts";
import { benchAgents } from "./agents.ts";
import { benchLedger } from "./ledger.ts";
import { benchPanes } from "./panes.ts";

if (import.meta.main) {
  const log = (line: string) => console.error(line);
  const rows: BenchRow[] = [];
  log("bench: panes (throughput, memory, ls latency)…");
  rows.push(...await benchPanes(log));
  log("bench: agents (turn-end latency, send overhead)…");
  rows.push(...await benchAgents(log));
  log("bench: ledger (ls latency on 10,000 rows, adds per second)…");
  rows.push(...await benchLedger(log));
  console.log(renderTable(rows));
}
