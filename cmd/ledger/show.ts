/**
 * `skiff ledger show`: one row, a plan with its tasks.
 *
 * @module
 */

import { arg, type CommandSpec } from "../../lib/cli/mod.ts";
import { entryToJson } from "../../lib/ledger/mod.ts";
import { entryDetails } from "./format.ts";
import { ID_HELP, LEDGER_EXITS, noticeUnknown, openCliLedger, REF_EXITS } from "./shared.ts";
import { readLiveness } from "../../lib/tasks/mod.ts";

/** The `ledger show` command. */
export const command: CommandSpec = {
  name: "show",
  summary: "Show one task, or a plan with its tasks",
  description:
    "Show every field of one row. A plan comes with all of its tasks. Shown states follow the same rules as 'skiff ledger ls': skiffd is asked, never started.",
  args: [{ name: "ID", required: true, help: ID_HELP }],
  exitCodes: [...REF_EXITS, ...LEDGER_EXITS],
  run: async (ctx) => {
    const ref = arg(ctx, "ID");
    using ledger = openCliLedger(ctx);
    ledger.resolve(ref);
    const report = await readLiveness();
    const entry = ledger.show(ref, report.liveness);
    noticeUnknown(ctx, report);
    ctx.out.result(
      { liveness: report.liveness === null ? "unknown" : "known", row: entryToJson(entry) },
      () => ctx.out.line(entryDetails(entry)),
    );
  },
};
