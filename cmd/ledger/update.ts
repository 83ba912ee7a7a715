/**
 * `skiff ledger update`: change a row's state, pane, text, ref or result path.
 *
 * @module
 */

import { arg, type CommandSpec, optString, SkiffError } from "../../lib/cli/mod.ts";
import { entryToJson, type StoredState, type UpdateInput } from "../../lib/ledger/mod.ts";
import { currentGeneration, lookUpPane } from "../../lib/tasks/mod.ts";
import { ID_HELP, LEDGER_EXITS, openCliLedger } from "./shared.ts";

/** The `ledger update` command. */
export const command: CommandSpec = {
  name: "update",
  summary: "Change a row's state, pane, task text, ref or result path",
  description:
    "Change the given fields of a row. A new --pane stores that pane's id, name and current generation (skiffd starts if it does not run; the pane must exist). --state sent stores the generation of the task's pane when skiffd runs, and none (unknown) when it does not. States to set: sent, pending, blocked, done.",
  args: [{ name: "ID", required: true, help: ID_HELP }],
  options: [
    { name: "state", type: "string", value: "S", help: "sent, pending, blocked or done" },
    { name: "pane", type: "string", value: "P", help: "Move the task to pane P" },
    { name: "task", type: "string", value: "T", help: "New task text" },
    { name: "ref", type: "string", value: "R", help: "New free text; '' clears it" },
    { name: "result", type: "string", value: "PATH", help: "New result path" },
  ],
  exitCodes: [
    [3, "No task with that ID or uid, or no such pane"],
    [4, "skiffd could not be reached"],
    [5, "A plan with open tasks cannot be done"],
    ...LEDGER_EXITS,
  ],
  run: async (ctx) => {
    const ref = arg(ctx, "ID");
    const state = optString(ctx, "state");
    const paneRef = optString(ctx, "pane");
    const refText = optString(ctx, "ref");
    const changes: UpdateInput = {
      state: state as StoredState | undefined,
      task: optString(ctx, "task"),
      ref: refText === undefined ? undefined : refText === "" ? null : refText,
      result: optString(ctx, "result"),
    };
    if (Object.values(changes).every((v) => v === undefined) && paneRef === undefined) {
      throw new SkiffError(
        "Nothing to change: give --state, --pane, --task, --ref or --result",
        { exit: "USAGE" },
      );
    }
    using ledger = openCliLedger(ctx);
    const row = ledger.get(ref);
    if (paneRef !== undefined) {
      if (row.kind === "plan") {
        throw new SkiffError(`${row.uid} is a plan, and a plan has no pane`, { exit: "USAGE" });
      }
      changes.pane = await lookUpPane(paneRef);
      changes.generation = changes.pane.generation;
    } else if (state === "sent" && row.pane !== null) {
      changes.generation = await currentGeneration(row.pane);
    }
    const updated = ledger.update(row.uid, changes);
    const entry = ledger.show(updated.uid, null);
    ctx.out.result({ row: entryToJson(entry) }, () => ctx.out.line(`Updated ${updated.uid}`));
  },
};
