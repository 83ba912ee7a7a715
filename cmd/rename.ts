/**
 * `skiff rename`: rename a pane.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { withPane } from "../lib/hosts/resolve.ts";

/** The `rename` command. */
export const command = defineCommand({
  name: "rename",
  summary: "Rename a pane",
  args: [
    PANE_ARG,
    { name: "NAME", required: true, help: "The new, unique name" },
  ],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
    ["CONFLICT", "The name is taken"],
  ],
  run: async (ctx) => {
    const pane = await withPane(
      ctx.args.PANE,
      (client, ref) => client.call("pane.rename", { pane: ref, name: ctx.args.NAME }),
    );
    ctx.out.result({ pane }, () => {});
  },
});
