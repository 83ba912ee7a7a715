/**
 * What the `skiff ledger` commands share: opening the ledger with notices,
 * the liveness notice, and help texts.
 *
 * @module
 */

import { type ExitUse, type Output, readStdin } from "../../lib/cli/mod.ts";
import type { Ledger } from "../../lib/ledger/mod.ts";
import { openAgentLedger, type OpenAgentLedgerOptions } from "../../lib/skipper/ledger.ts";
import type { LivenessReport } from "../../lib/tasks/liveness.ts";

/** Exit codes every ledger command may use, for `--help`. */
export const LEDGER_EXITS: readonly ExitUse[] = [
  ["DATA", "The ledger is damaged, not a Skiff ledger, from a newer Skiff, or locked"],
];

/** The meaning of exit 2 for commands that may make the ledger's folder. */
export const FOLDER_EXIT: ExitUse = [
  "USAGE",
  "Bad input, or the Skiff agent's folder cannot be used; nothing was changed",
];

/** Exit codes of commands that take an ID, for `--help`. */
export const REF_EXITS: readonly ExitUse[] = [["NOT_FOUND", "No task with that ID or uid"]];

/** The `ID` argument of the commands that name a row. */
export const ID_ARG = {
  name: "ID",
  required: true,
  help: "Row ID, uid, or the first 4 or more characters of a uid",
  complete: "task",
} as const;

/**
 * A `--task` value: `-` reads the text from stdin (as `skiff send -` does),
 * without the newlines that end it.
 */
export async function taskText(value: string): Promise<string> {
  return value === "-" ? (await readStdin()).replace(/[\r\n]+$/, "") : value;
}

/**
 * Opens the ledger and says in text mode what the open imported or
 * upgraded. A missing ledger opens empty and nothing is made, unless
 * `create` is given (only `ledger add` makes it).
 */
export function openCliLedger(ctx: { out: Output }, options: OpenAgentLedgerOptions = {}): Ledger {
  const ledger = openAgentLedger(options);
  if (ledger.imported) {
    const kept = ledger.imported.backup ? `; kept it as ${ledger.imported.backup}` : "";
    ctx.out.notice(
      `skiff: imported ${ledger.imported.rows} row(s) from ${ledger.imported.from}${kept}`,
    );
  }
  if (ledger.migrated) {
    ctx.out.notice(
      `skiff: upgraded the ledger from version ${ledger.migrated.from} to ${ledger.migrated.to} (${ledger.migrated.rows} row(s))`,
    );
  }
  return ledger;
}

/**
 * Prints, in text mode, the one notice line that liveness is unknown, or one
 * line for each host of the tasks that could not be reached.
 */
export function noticeUnknown(ctx: { out: Output }, report: LivenessReport): void {
  for (const { host, why } of report.unreachable) {
    ctx.out.notice(`skiff: host ${host} is unreachable (${why}): its open tasks show unreachable`);
  }
  if (report.liveness !== null) return;
  ctx.out.notice(
    `skiff: ${report.why}, so liveness is unknown: no task shows interrupted or gone`,
  );
}
