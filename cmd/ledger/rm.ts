/**
 * `skiff ledger rm`: remove a row.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { toJson } from "../../lib/ledger/mod.ts";
import { ID_ARG, LEDGER_EXITS, openCliLedger, REF_EXITS } from "./shared.ts";

/** The `ledger rm` command. */
export const command = defineCommand({
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a task, or a plan (with --with-tasks, its tasks too)",
  description:
    "Remove a row from the ledger. Its row ID and uid are never given again. No file is deleted, result files included. A plan with tasks is refused unless --with-tasks is given.",
  args: [ID_ARG],
  options: [
    { name: "with-tasks", type: "boolean", help: "Remove a plan together with its tasks" },
  ],
  exits: [...REF_EXITS, ["CONFLICT", "The plan has tasks (see --with-tasks)"], ...LEDGER_EXITS],
  run: (ctx) => {
    using ledger = openCliLedger(ctx);
    const [row, ...tasks] = ledger.remove(ctx.args.ID, { withTasks: ctx.opts["with-tasks"] });
    const json = toJson(row, {
      state: row.state,
      tasks: tasks.map((t) => ({ row: t, state: t.state })),
    });
    ctx.out.result({ removed: [row, ...tasks].map((r) => r.uid), row: json }, () => {
      const also = tasks.length > 0
        ? ` and its ${tasks.length} task(s): ${tasks.map((t) => t.uid).join(", ")}`
        : "";
      ctx.out.line(`Removed ${row.kind} ${row.uid}${also}`);
    });
  },
});
