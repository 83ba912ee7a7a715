/**
 * `deno task bench`: Skiff measured against tmux (or the tool a row names) on
 * this machine, in the same run, as one table of medians with their min and
 * max, and ratios. Numbers vary with load; compare ratios.
 *
 * @module
 */

import { type BenchRow, renderTable } from "./harness.ts";
import { benchAgents } from "./agents.ts";
import { benchDash } from "./dash.ts";
import { benchHosts } from "./hosts.ts";
import { benchLand } from "./land.ts";
import { benchLedger } from "./ledger.ts";
import { benchLoad } from "./load.ts";
import { benchMcp } from "./mcp.ts";
import { benchPanes } from "./panes.ts";
import { benchResume } from "./resume.ts";
import { benchScale } from "./scale.ts";
import { benchStart } from "./start.ts";
import { benchUpgrade } from "./upgrade.ts";
import { benchWatch } from "./watch.ts";
import { benchWorktree } from "./worktree.ts";

if (import.meta.main) {
  const log = (line: string) => console.error(line);
  const rows: BenchRow[] = [];
  log("bench: load (memory per idle pane, ls, echo and send while 20 panes flood)…");
  rows.push(...await benchLoad(log));
  log("bench: throughput of one pane…");
  rows.push(...await benchPanes(log));
  log("bench: agents (turn-end latency, send overhead)…");
  rows.push(...await benchAgents(log));
  log("bench: the watcher (a turn end to the Skiff agent's line)…");
  rows.push(...await benchWatch(log));
  log("bench: resume after a restore, per real agent (offline, against the fake model)…");
  rows.push(...await benchResume(log));
  log("bench: skiff daemon upgrade with 200 panes…");
  rows.push(...await benchUpgrade(log));
  log("bench: ledger (ls on 10,000 rows, adds)…");
  rows.push(...await benchLedger(log));
  log("bench: worktrees (a count after a turn end, ls with worktree panes, diff --stat)…");
  rows.push(...await benchWorktree(log));
  log("bench: landing (a 50-commit branch, a 2,000-file change, vs git rebase + merge)…");
  rows.push(...await benchLand(log));
  log("bench: the dashboard (first frame, keys, preview, idle CPU, under a flood)…");
  rows.push(...await benchDash(log));
  log("bench: hosts over loopback SSH (a send, ls --all-hosts, a remote turn end to the line)…");
  rows.push(...await benchHosts(log));
  log("bench: skiff mcp (a warm list_panes with 200 panes, send_to_pane) against the CLI…");
  rows.push(...await benchMcp(log));
  log("bench: start (the launcher, a pane's skiff, a cold ls against a Deno hello world)…");
  rows.push(...await benchStart(log));
  log("bench: scale (10 to 1,000 panes against tmux: memory, ls, echo, dash, restore, upgrade)…");
  rows.push(...await benchScale(log));
  console.log(renderTable(rows));
  // Done once the table is out: nothing a measured program left open may keep the bench
  // running (the dashboard's rows did).
  Deno.exit(0);
}
