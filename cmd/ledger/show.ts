/**
 * `skiff ledger show`: one row, a plan with its tasks.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { ledgerShow } from "../../lib/ops/ledger_show.ts";
import type { LivenessReport } from "../../lib/tasks/liveness.ts";
import { entryDetails } from "./format.ts";
import { ID_ARG, LEDGER_EXITS, noticeUnknown, openCliLedger, REF_EXITS } from "./shared.ts";

/** The `ledger show` command. */
export const command = defineCommand({
  name: "show",
  summary: "Show one task, or a plan with its tasks",
  description:
    "Show every field of one row. A plan comes with all of its tasks. Shown states follow the same rules as 'skiff ledger ls': skiffd is asked, never started.",
  args: [ID_ARG],
  exits: [...REF_EXITS, ...LEDGER_EXITS],
  run: async (ctx) => {
    const ref = ctx.args.ID;
    using ledger = openCliLedger(ctx);
    let report: LivenessReport | undefined;
    const shown = await ledgerShow(ledger, ref, { report: (r) => report = r });
    noticeUnknown(ctx, report!);
    ctx.out.result(shown, () => ctx.out.line(entryDetails(ledger.show(ref, report!.liveness))));
  },
});
