/**
 * `skiff ledger ls`: list plans and tasks.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { writeChunksSync } from "../../lib/platform/bytes.ts";
import { SCHEMA_VERSION } from "../../lib/version.ts";
import { listToJson, type ShownState } from "../../lib/ledger/mod.ts";
import { readLiveness } from "../../lib/tasks/liveness.ts";
import { entriesTable } from "./format.ts";
import { LEDGER_EXITS, noticeUnknown, openCliLedger } from "./shared.ts";

/** The `ledger ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List open plans and tasks, each plan with its tasks",
  description:
    "List the open rows (not done or landed), each plan with its tasks indented under it. A plan with no tasks shows open (nothing was sent for it). A task shows interrupted when its pane restarted after the send, gone when its pane no longer exists, and unreachable when its pane is on another host (HOST:PANE) that cannot be reached now (the pane may be fine); this needs skiffd, which ls never starts, and each host answers within 0.8 s. When skiffd does not run, ls says so and shows the stored states.",
  options: [
    {
      name: "state",
      type: "list",
      value: "S",
      help:
        "Only rows that show state S (sent, pending, blocked, done, interrupted, gone, open, unreachable, landed; or S,S…)",
    },
    {
      name: "pane",
      type: "string",
      value: "P",
      help: "Only tasks on pane P (id or stored name; HOST:P on another host)",
      complete: "pane",
    },
    {
      name: "plan",
      type: "string",
      value: "ID",
      help: "Only this plan and its tasks",
      complete: "task",
    },
    { name: "all", short: "a", type: "boolean", help: "Include done rows" },
  ],
  exits: [["NOT_FOUND", "No such plan"], ...LEDGER_EXITS],
  run: async (ctx) => {
    const states = ctx.opts.state.flatMap((s) => s.split(",")).map((s) => s.trim())
      .filter((s) => s !== "") as ShownState[];
    const filter = {
      state: states.length > 0 ? states : undefined,
      pane: ctx.opts.pane,
      plan: ctx.opts.plan,
      all: ctx.opts.all,
    };
    using ledger = openCliLedger(ctx);
    const report = await readLiveness(ledger.openHosts());
    if (ctx.json) {
      // SQLite writes the rows' JSON: for a big ledger, several times faster than objects.
      const head = JSON.stringify({
        schema_version: SCHEMA_VERSION,
        liveness: report.liveness === null ? "unknown" : "known",
        unreachable: report.unreachable,
      });
      const encoder = new TextEncoder();
      writeChunksSync(Deno.stdout, [
        encoder.encode(`${head.slice(0, -1)},"rows":`),
        ...ledger.listJson(filter, report.liveness),
        encoder.encode("}\n"),
      ]);
      return;
    }
    const list = ledger.list(filter, report.liveness);
    noticeUnknown(ctx, report);
    ctx.out.result(listToJson(list), () => {
      if (list.entries.length > 0) {
        ctx.out.line(entriesTable(list.entries));
      } else if (filter.state || filter.pane || filter.plan) {
        ctx.out.line("No rows match.");
      } else if (filter.all) {
        ctx.out.line(
          "The ledger is empty. Add a task with 'skiff ledger add --pane PANE --task TEXT'.",
        );
      } else {
        ctx.out.line("No open tasks. 'skiff ledger ls --all' lists done ones too.");
      }
    });
  },
});
