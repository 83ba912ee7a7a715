/**
 * `skiff ledger done`: mark a task or a plan done.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { entryToJson } from "../../lib/ledger/mod.ts";
import { ID_ARG, LEDGER_EXITS, openCliLedger, REF_EXITS } from "./shared.ts";

/** The `ledger done` command. */
export const command = defineCommand({
  name: "done",
  summary: "Mark a task or a plan done",
  description: "Mark a row done. A plan with open tasks is refused: mark its tasks done first.",
  args: [ID_ARG],
  exits: [...REF_EXITS, ["CONFLICT", "The plan has open tasks"], ...LEDGER_EXITS],
  run: (ctx) => {
    using ledger = openCliLedger(ctx);
    const row = ledger.done(ctx.args.ID);
    const entry = ledger.show(row.uid, null);
    ctx.out.result({ row: entryToJson(entry) }, () => ctx.out.line(`Done: ${row.uid}`));
  },
});
