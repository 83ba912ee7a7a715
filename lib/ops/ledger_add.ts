/**
 * Adding a ledger row, as `skiff ledger add` and the `ledger_add` tool do:
 * a task for a pane (stored with its host, id, name and generation), or a
 * plan when no pane is given, and with `send` the task's delivery.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { type AddInput, entryToJson, type Ledger, type TaskJson } from "../ledger/mod.ts";
import { type LedgerOpOptions, lookUpScopedPane } from "./ledger_scope.ts";
import { ledgerSend, type LedgerSendOptions, type LedgerSendResult } from "./ledger_send.ts";

/** What to add, for {@linkcode ledgerAdd}. */
export interface LedgerAddInput {
  /** The task's pane (`PANE` or `HOST:PANE`); none: a plan. */
  pane?: string;
  /** The task text. */
  task: string;
  /** The result file (default: computed beside the ledger). */
  result?: string;
  /** Free text, such as a URL or a ticket key. */
  ref?: string;
  /** The plan this task belongs to. */
  parent?: string;
}

/** Options for {@linkcode ledgerAdd}. */
export interface LedgerAddOptions extends LedgerOpOptions, Omit<LedgerSendOptions, "access"> {
  /** Send the task to its pane now. */
  send?: boolean;
}

/** What `skiff ledger add --json` prints without `--send`. */
export interface LedgerAddResult {
  /** The row as added. */
  row: TaskJson;
}

/**
 * The `AddInput` for `input`: the pane looked up through its skiffd (within
 * the project, when one is given), so a mistyped pane adds nothing.
 */
export async function ledgerAddInput(
  input: LedgerAddInput,
  options: LedgerOpOptions = {},
): Promise<AddInput> {
  if (options.project !== undefined && input.pane === undefined) {
    throw new SkiffError(
      `A plan belongs to no project: only tasks on project ${options.project}'s panes can be added`,
      { exit: "USAGE" },
    );
  }
  const pane = input.pane === undefined ? null : await lookUpScopedPane(input.pane, options);
  return { pane, task: input.task, result: input.result, ref: input.ref, parent: input.parent };
}

/**
 * Adds `input` (see {@linkcode ledgerAddInput}) to `ledger` and returns
 * what `skiff ledger add --json` prints; with `send`, what `skiff ledger
 * send --json` prints, or throws `TaskNotSent` (carrying it) when no turn
 * started.
 */
export async function ledgerAdd(
  ledger: Ledger,
  input: AddInput,
  options: LedgerAddOptions = {},
): Promise<LedgerAddResult | LedgerSendResult> {
  if (options.send && input.pane === null) {
    throw new SkiffError("Only a task with a pane can be sent", { exit: "USAGE" });
  }
  const row = ledger.add(input);
  if (options.send) return await ledgerSend(ledger, row.uid, options);
  return { row: entryToJson(ledger.show(row.uid, null)) };
}
