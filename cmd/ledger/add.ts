/**
 * `skiff ledger add`: add a task, or a plan when no pane is given.
 *
 * @module
 */

import {
  type CommandSpec,
  optBool,
  optNumber,
  optString,
  secondsToMs,
  SkiffError,
} from "../../lib/cli/mod.ts";
import { entryToJson, type LedgerPane } from "../../lib/ledger/mod.ts";
import { deliverTask, lookUpPane } from "../../lib/tasks/mod.ts";
import { SEND_EXITS, SEND_OPTIONS } from "./send_options.ts";
import { reportDelivery } from "./report.ts";
import { LEDGER_EXITS, openCliLedger } from "./shared.ts";

/** The `ledger add` command. */
export const command: CommandSpec = {
  name: "add",
  summary: "Add a task for a pane, or a plan (no pane)",
  description:
    "Add a row and print its uid and result path. With --pane it is a task for that pane, stored with the pane's id, name and process generation (skiffd starts if it does not run). Without --pane it is a plan: put tasks under it with --parent. Without --result the path is computed in results/ beside the ledger; no file is made.",
  options: [
    { name: "pane", type: "string", value: "PANE", help: "The pane: id, name or project/name" },
    { name: "task", type: "string", value: "TEXT", help: "The task text (required)" },
    { name: "result", type: "string", value: "PATH", help: "The result file (default: computed)" },
    { name: "ref", type: "string", value: "TEXT", help: "Free text, such as a URL or ticket key" },
    { name: "parent", type: "string", value: "ID", help: "The plan this task belongs to" },
    { name: "send", type: "boolean", help: "Send it to the pane now, as 'skiff ledger send' does" },
    ...SEND_OPTIONS,
  ],
  examples: [
    "skiff ledger add --task 'Release 2.0'",
    "skiff ledger add --pane reviewer --task 'Review the parser' --parent 3f2a",
    "skiff ledger add --pane reviewer --task 'Review the parser' --send --enter",
  ],
  exitCodes: [
    [3, "No such pane or parent"],
    [4, "skiffd could not be reached"],
    ...SEND_EXITS,
    ...LEDGER_EXITS,
  ],
  run: async (ctx) => {
    const task = optString(ctx, "task");
    if (task === undefined) {
      throw new SkiffError(
        "Option '--task' is required. See 'skiff ledger add --help'.",
        { exit: "USAGE" },
      );
    }
    const paneRef = optString(ctx, "pane");
    const send = optBool(ctx, "send");
    if (send && paneRef === undefined) {
      throw new SkiffError("--send needs --pane: a plan has no pane to send to", { exit: "USAGE" });
    }
    if (!send && (optBool(ctx, "enter") || optNumber(ctx, "timeout") !== undefined)) {
      throw new SkiffError("--enter and --timeout go with --send", { exit: "USAGE" });
    }
    const seconds = optNumber(ctx, "timeout");
    const timeoutMs = seconds === undefined ? undefined : secondsToMs(seconds, "timeout");
    using ledger = openCliLedger(ctx);
    let pane: LedgerPane | null = null;
    if (paneRef !== undefined) pane = await lookUpPane(paneRef);
    const row = ledger.add({
      pane,
      task,
      result: optString(ctx, "result"),
      ref: optString(ctx, "ref"),
      parent: optString(ctx, "parent"),
    });
    if (send) {
      const delivery = await deliverTask(ledger, row.uid, {
        enter: optBool(ctx, "enter"),
        timeoutMs,
      });
      return reportDelivery(ctx, ledger, delivery);
    }
    const entry = ledger.show(row.uid, null);
    ctx.out.result({ row: entryToJson(entry) }, () => ctx.out.line(`${row.uid} ${row.result}`));
  },
};
