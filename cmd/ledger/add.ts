/**
 * `skiff ledger add`: add a task, or a plan when no pane is given.
 *
 * @module
 */

import { defineCommand, secondsToMs } from "../../lib/cli/mod.ts";
import { ledgerAdd, ledgerAddInput } from "../../lib/ops/ledger_add.ts";
import { SEND_EXITS, SEND_OPTIONS } from "./send_options.ts";
import { FOLDER_EXIT, LEDGER_EXITS, openCliLedger, taskText } from "./shared.ts";

/** The `ledger add` command. */
export const command = defineCommand({
  name: "add",
  summary: "Add a task for a pane, or a plan (no pane)",
  description:
    "Add a row and print its uid and result path. With --pane it is a task for that pane, stored with the pane's host (HOST:PANE), id, name and process generation (skiffd starts if it does not run). Without --pane it is a plan: put tasks under it with --parent. Without --result the path is computed in results/ beside the ledger; no file is made.",
  options: [
    {
      name: "pane",
      type: "string",
      value: "PANE",
      help: "The pane: id, name, project/name, or HOST:PANE on another host",
      complete: "pane",
    },
    {
      name: "task",
      type: "string",
      value: "TEXT",
      help: "The task text, or - to read it from stdin",
      required: true,
    },
    {
      name: "result",
      type: "string",
      value: "PATH",
      help: "The result file (default: computed)",
      complete: "file",
    },
    { name: "ref", type: "string", value: "TEXT", help: "Free text, such as a URL or ticket key" },
    {
      name: "parent",
      type: "string",
      value: "ID",
      help: "The plan this task belongs to",
      complete: "task",
    },
    {
      name: "send",
      type: "boolean",
      help: "Send it to the pane now, as 'skiff ledger send' does",
      requires: ["pane"],
    },
    { ...SEND_OPTIONS[0], requires: ["send"] },
    { ...SEND_OPTIONS[1], requires: ["send"] },
  ],
  examples: [
    "skiff ledger add --task 'Release 2.0'",
    "skiff ledger add --pane reviewer --task 'Review the parser' --parent 3f2a",
    "skiff ledger add --pane reviewer --task 'Review the parser' --send --enter",
    "skiff ledger add --pane reviewer --task - --send --enter < task.md",
  ],
  exits: [
    FOLDER_EXIT,
    ["NOT_FOUND", "No such pane or parent"],
    "DAEMON",
    ...SEND_EXITS,
    ...LEDGER_EXITS,
  ],
  run: async (ctx) => {
    const seconds = ctx.opts.timeout;
    const timeoutMs = seconds === undefined ? undefined : secondsToMs(seconds, "timeout");
    const pane = ctx.opts.pane;
    const input = await ledgerAddInput({
      pane,
      task: await taskText(ctx.opts.task),
      result: ctx.opts.result,
      ref: ctx.opts.ref,
      parent: ctx.opts.parent,
    });
    // The first add makes the ledger; an add that would fail makes nothing.
    using ledger = openCliLedger(ctx, { create: true, rehearse: (empty) => empty.add(input) });
    if (ctx.opts.send) {
      const { reportSend } = await import("./report.ts");
      return await reportSend(
        ctx,
        ledgerAdd(ledger, input, { send: true, enter: ctx.opts.enter, timeoutMs }),
      );
    }
    const added = await ledgerAdd(ledger, input);
    ctx.out.result(added, () => ctx.out.line(`${added.row.uid} ${added.row.result}`));
  },
});
