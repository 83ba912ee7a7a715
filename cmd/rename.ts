/**
 * `skiff rename`: rename a pane.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `rename` command. */
export const command = defineCommand({
  name: "rename",
  summary: "Rename a pane",
  args: [
    { name: "PANE", required: true, help: "Pane id, name, or project/name", complete: "pane" },
    { name: "NAME", required: true, help: "The new, unique name" },
  ],
  exits: ["NOT_FOUND", "DAEMON", ["CONFLICT", "The name is taken"]],
  run: async (ctx) => {
    const pane = await withDaemon((client) =>
      client.call("pane.rename", { pane: ctx.args.PANE, name: ctx.args.NAME })
    );
    ctx.out.result({ pane }, () => {});
  },
});
