/**
 * One ledger row, a plan with its tasks, as `skiff ledger show` and the
 * `ledger_show` tool give it.
 *
 * @module
 */

import { entryToJson, type Ledger, type TaskJson } from "../ledger/mod.ts";
import { type LivenessReport, readLiveness } from "../tasks/liveness.ts";
import { type LedgerOpOptions, rowOutOfScope, rowsInScope, scopePanes } from "./ledger_scope.ts";

/** What `skiff ledger show --json` prints. */
export interface LedgerShowResult {
  /** Whether skiffd said which panes live. */
  liveness: "known" | "unknown";
  /** The row; a plan holds its tasks. */
  row: TaskJson;
}

/**
 * Shows row `ref` (row ID, uid or a uid's first 4 or more characters) and
 * returns what `skiff ledger show --json` prints. `report`, when asked for,
 * gets skiffd's report of the panes (for the CLI's notices).
 */
export async function ledgerShow(
  ledger: Ledger,
  ref: string,
  options: LedgerOpOptions & { report?: (report: LivenessReport) => void } = {},
): Promise<LedgerShowResult> {
  const row = ledger.get(ref);
  const report = await readLiveness(row.host && row.state !== "done" ? [row.host] : [], {
    access: options.access,
  });
  options.report?.(report);
  const entry = ledger.show(ref, report.liveness);
  let json = entryToJson(entry);
  if (options.project !== undefined) {
    const [kept] = rowsInScope([json], await scopePanes(options.project, options));
    if (!kept) throw rowOutOfScope(ref, options.project);
    json = kept;
  }
  return { liveness: report.liveness === null ? "unknown" : "known", row: json };
}
