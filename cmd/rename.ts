/**
 * `skiff rename`: rename a pane.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `rename` command. */
export const command = defineCommand({
  name: "rename",
  summary: "Rename a pane",
  args: [
    PANE_ARG,
    { name: "NAME", required: true, help: "The new, unique name" },
  ],
  exits: ["NOT_FOUND", "DAEMON", ["CONFLICT", "The name is taken"]],
  run: async (ctx) => {
    const pane = await withDaemon(
      (client) => client.call("pane.rename", { pane: ctx.args.PANE, name: ctx.args.NAME }),
      { pane: ctx.args.PANE },
    );
    ctx.out.result({ pane }, () => {});
  },
});
