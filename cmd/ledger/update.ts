/**
 * `skiff ledger update`: change a row's state, pane, text, ref or result path.
 *
 * @module
 */

import { defineCommand, SkiffError } from "../../lib/cli/mod.ts";
import {
  entryToJson,
  STORED_STATES,
  type StoredState,
  type UpdateInput,
} from "../../lib/ledger/mod.ts";
import { currentGeneration, lookUpPane } from "../../lib/tasks/liveness.ts";
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
    { name: "ref", type: "string", value: "R", help: "New free text; '' clears it" },
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
    const changes: UpdateInput = {
      state: state as StoredState | undefined,
      task: ctx.opts.task === undefined ? undefined : await taskText(ctx.opts.task),
      ref: refText === undefined ? undefined : refText === "" ? null : refText,
      result: ctx.opts.result,
    };
    if (Object.values(changes).every((v) => v === undefined) && paneRef === undefined) {
      throw new SkiffError(
        "Nothing to change: give --state, --pane, --task, --ref or --result",
        { exit: "USAGE" },
      );
    }
    using ledger = openCliLedger(ctx);
    const row = ledger.get(ctx.args.ID);
    if (paneRef !== undefined) {
      if (row.kind === "plan") {
        throw new SkiffError(`${row.uid} is a plan, and a plan has no pane`, { exit: "USAGE" });
      }
      changes.pane = await lookUpPane(paneRef);
      changes.generation = changes.pane.generation;
    } else if (state === "sent" && row.pane !== null) {
      changes.generation = await currentGeneration(row.pane, row.host);
    }
    const updated = ledger.update(row.uid, changes);
    const entry = ledger.show(updated.uid, null);
    ctx.out.result({ row: entryToJson(entry) }, () => ctx.out.line(`Updated ${updated.uid}`));
  },
});
