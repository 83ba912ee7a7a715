/**
 * `skiff rename`: rename a pane.
 *
 * @module
 */

import { arg, type CommandSpec } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `rename` command. */
export const command: CommandSpec = {
  name: "rename",
  summary: "Rename a pane",
  args: [
    { name: "PANE", required: true, help: "Pane id, name, or project/name" },
    { name: "NAME", required: true, help: "The new, unique name" },
  ],
  exitCodes: [[3, "No such pane"], [4, "skiffd could not be reached"], [5, "The name is taken"]],
  run: async (ctx) => {
    const pane = await withDaemon((client) =>
      client.call("pane.rename", { pane: arg(ctx, "PANE"), name: arg(ctx, "NAME") })
    );
    ctx.out.result({ pane }, () => {});
  },
};
