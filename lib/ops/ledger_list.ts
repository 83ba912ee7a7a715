/**
 * Listing the ledger, as `skiff ledger ls` and the `ledger_list` tool do:
 * the open rows (or those asked for), each plan with its tasks, with the
 * states that skiffd's panes show (asked, never started).
 *
 * @module
 */

import { SCHEMA_VERSION } from "../version.ts";
import { joinBytes } from "../platform/bytes.ts";
import type { Ledger, ListFilter, TaskJson } from "../ledger/mod.ts";
import { type LivenessReport, readLiveness } from "../tasks/liveness.ts";
import { type LedgerOpOptions, rowsInScope, scopePanes } from "./ledger_scope.ts";

/** What `skiff ledger ls --json` prints. */
export interface LedgerListResult {
  /** The JSON schema's version. */
  schema_version: number;
  /** Whether skiffd said which panes live (else no task shows interrupted or gone). */
  liveness: "known" | "unknown";
  /** The hosts whose tasks show unreachable, each with why. */
  unreachable: { host: string; why: string }[];
  /** The rows: plans with their tasks, and tasks without a plan. */
  rows: TaskJson[];
}

/** The listing in pieces, for a caller that writes it out as it is made (`skiff ledger ls --json`). */
export interface LedgerListing {
  /** What skiffd said of the panes. */
  report: LivenessReport;
  /** The result's keys before `rows`, as JSON text without its closing brace. */
  head: string;
  /** The rows' JSON array, as UTF-8 pieces made by SQLite. */
  rows: Uint8Array[];
}

/**
 * Lists the ledger in pieces: skiffd's report and the rows' JSON as SQLite
 * writes it (several times faster than objects, for a big ledger).
 */
export async function ledgerListing(
  ledger: Ledger,
  filter: ListFilter,
  options: Pick<LedgerOpOptions, "access"> = {},
): Promise<LedgerListing> {
  const report = await readLiveness(ledger.openHosts(), { access: options.access });
  const head = JSON.stringify({
    schema_version: SCHEMA_VERSION,
    liveness: report.liveness === null ? "unknown" : "known",
    unreachable: report.unreachable,
  });
  return { report, head: head.slice(0, -1), rows: ledger.listJson(filter, report.liveness) };
}

/** Lists the ledger and returns what `skiff ledger ls --json` prints. */
export async function ledgerList(
  ledger: Ledger,
  filter: ListFilter = {},
  options: LedgerOpOptions = {},
): Promise<LedgerListResult> {
  const listing = await ledgerListing(ledger, filter, options);
  const rows = JSON.parse(new TextDecoder().decode(joinBytes(listing.rows))) as TaskJson[];
  const result = JSON.parse(`${listing.head},"rows":[]}`) as LedgerListResult;
  result.rows = options.project === undefined
    ? rows
    : rowsInScope(rows, await scopePanes(options.project, options));
  return result;
}
