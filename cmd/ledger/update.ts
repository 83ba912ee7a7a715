/**
 * `skiff ledger update`: change a row's state, pane, text, ref or result path.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { STORED_STATES, type StoredState } from "../../lib/ledger/mod.ts";
import { checkChanges, ledgerUpdate } from "../../lib/ops/ledger_update.ts";
import { ID_ARG, LEDGER_EXITS, openCliLedger, taskText } from "./shared.ts";

/** The `ledger update` command. */
export const command = defineCommand({
  name: "update",
  summary: "Change a row's state, pane, task text, ref or result path",
  description:
    "Change the given fields of a row. A new --pane stores that pane's id, name and current generation (skiffd starts if it does not run; the pane must exist). --state sent stores the generation of the task's pane when skiffd runs, and none (unknown) when it does not. States to set: sent, pending, blocked, done.",
  args: [ID_ARG],
  options: [
    {
      name: "state",
      type: "string",
      value: "S",
      help: "The new state: sent, pending, blocked or done",
      suggest: STORED_STATES,
    },
    { name: "pane", type: "string", value: "P", help: "Move the task to pane P", complete: "pane" },
    { name: "task", type: "string", value: "T", help: "New task text; - reads it from stdin" },
    { name: "ref", type: "string", value: "R", help: "New free text; '' clears it", empty: true },
    { name: "result", type: "string", value: "PATH", help: "New result path", complete: "file" },
  ],
  exits: [
    ["NOT_FOUND", "No task with that ID or uid, or no such pane"],
    "DAEMON",
    ["CONFLICT", "A plan with open tasks cannot be done"],
    ...LEDGER_EXITS,
  ],
  run: async (ctx) => {
    const { state, pane: paneRef, ref: refText } = ctx.opts;
    const changes = {
      state: state as StoredState | undefined,
      pane: paneRef,
      task: ctx.opts.task === undefined ? undefined : await taskText(ctx.opts.task),
      ref: refText === undefined ? undefined : refText === "" ? null : refText,
      result: ctx.opts.result,
    };
    // Refused before the ledger is opened.
    checkChanges(changes);
    using ledger = openCliLedger(ctx);
    const result = await ledgerUpdate(ledger, ctx.args.ID, { changes });
    ctx.out.result(result, () => ctx.out.line(`Updated ${result.row.uid}`));
  },
});
