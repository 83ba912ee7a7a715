/**
 * Changing a ledger row, as `skiff ledger update` and the `ledger_update`
 * tool do: its state, pane, task text, ref or result path.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import {
  entryToJson,
  type Ledger,
  type StoredState,
  type TaskJson,
  type UpdateInput,
} from "../ledger/mod.ts";
import { currentGeneration } from "../tasks/liveness.ts";
import {
  type LedgerOpOptions,
  lookUpScopedPane,
  rowInScope,
  rowOutOfScope,
  scopePanes,
} from "./ledger_scope.ts";

/** The changes, for {@linkcode ledgerUpdate}: each field left out stays. */
export interface LedgerChanges {
  /** The new stored state: sent, pending, blocked or done. */
  state?: StoredState;
  /** Move the task to this pane (`PANE` or `HOST:PANE`; it must exist). */
  pane?: string;
  /** New task text. */
  task?: string;
  /** New free text; null clears it. */
  ref?: string | null;
  /** New result path. */
  result?: string;
}

/** Options for {@linkcode ledgerUpdate}. */
export interface LedgerUpdateOptions extends LedgerOpOptions {
  /** The changes. */
  changes: LedgerChanges;
}

/** What `skiff ledger update --json` prints. */
export interface LedgerUpdateResult {
  /** The row as changed. */
  row: TaskJson;
}

/** Refuses changes that change nothing (`USAGE`). */
export function checkChanges(changes: LedgerChanges): void {
  if (Object.values(changes).every((v) => v === undefined)) {
    throw new SkiffError(
      "Nothing to change: give --state, --pane, --task, --ref or --result",
      { exit: "USAGE" },
    );
  }
}

/**
 * Changes row `ref` and returns what `skiff ledger update --json` prints.
 * Nothing to change, or a pane for a plan, is `USAGE`; an unknown row or
 * pane `NOT_FOUND`; a plan with open tasks cannot be done (`CONFLICT`).
 */
export async function ledgerUpdate(
  ledger: Ledger,
  ref: string,
  options: LedgerUpdateOptions,
): Promise<LedgerUpdateResult> {
  checkChanges(options.changes);
  const { state, pane: paneRef, task, ref: refText, result } = options.changes;
  const changes: UpdateInput = { state, task, ref: refText, result };
  const row = ledger.get(ref);
  if (options.project !== undefined) {
    const panes = await scopePanes(options.project, options);
    if (!rowInScope(row, panes)) throw rowOutOfScope(ref, options.project);
  }
  if (paneRef !== undefined) {
    if (row.kind === "plan") {
      throw new SkiffError(`${row.uid} is a plan, and a plan has no pane`, { exit: "USAGE" });
    }
    changes.pane = await lookUpScopedPane(paneRef, options);
    changes.generation = changes.pane.generation;
  } else if (state === "sent" && row.pane !== null) {
    changes.generation = await currentGeneration(row.pane, row.host, { access: options.access });
  }
  const updated = ledger.update(row.uid, changes);
  return { row: entryToJson(ledger.show(updated.uid, null)) };
}
