/**
 * `skiff ledger done`: mark a task or a plan done.
 *
 * @module
 */

import { arg, type CommandSpec } from "../../lib/cli/mod.ts";
import { entryToJson } from "../../lib/ledger/mod.ts";
import { ID_HELP, LEDGER_EXITS, openCliLedger, REF_EXITS } from "./shared.ts";

/** The `ledger done` command. */
export const command: CommandSpec = {
  name: "done",
  summary: "Mark a task or a plan done",
  description: "Mark a row done. A plan with open tasks is refused: mark its tasks done first.",
  args: [{ name: "ID", required: true, help: ID_HELP }],
  exitCodes: [...REF_EXITS, [5, "The plan has open tasks"], ...LEDGER_EXITS],
  run: (ctx) => {
    using ledger = openCliLedger(ctx);
    const row = ledger.done(arg(ctx, "ID"));
    const entry = ledger.show(row.uid, null);
    ctx.out.result({ row: entryToJson(entry) }, () => ctx.out.line(`Done: ${row.uid}`));
    return Promise.resolve();
  },
};
