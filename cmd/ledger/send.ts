/**
 * `skiff ledger send`: send a pending or interrupted task to its pane.
 *
 * @module
 */

import { defineCommand, secondsToMs } from "../../lib/cli/mod.ts";
import { SEND_EXITS, SEND_OPTIONS } from "./send_options.ts";
import { ID_ARG, LEDGER_EXITS, openCliLedger, REF_EXITS } from "./shared.ts";

/** The `ledger send` command. */
export const command = defineCommand({
  name: "send",
  summary: "Send a pending or interrupted task to its pane",
  description:
    "Type the task and its result path into its pane, with every check of 'skiff send', and exit with the same code. Exit 0 makes the task sent and exit 8 blocked, each with the pane's current generation; a refusal leaves the task as it was. A task that is not pending or interrupted is refused (exit 5). A task on a pane of another host whose host cannot be reached is refused (exit 17) and stays as it was; a link lost during the send leaves it blocked, since whether the text went in is unknown.",
  args: [ID_ARG],
  options: SEND_OPTIONS,
  examples: ["skiff ledger send 7c2e91ab --enter"],
  exits: [...REF_EXITS, "DAEMON", ...SEND_EXITS, ...LEDGER_EXITS],
  run: async (ctx) => {
    // Loaded here, not with the module: every ledger command loads this module.
    const { ledgerSend } = await import("../../lib/ops/ledger_send.ts");
    const { reportSend } = await import("./report.ts");
    using ledger = openCliLedger(ctx);
    const seconds = ctx.opts.timeout;
    return await reportSend(
      ctx,
      ledgerSend(ledger, ctx.args.ID, {
        enter: ctx.opts.enter,
        timeoutMs: seconds === undefined ? undefined : secondsToMs(seconds, "timeout"),
      }),
    );
  },
});
