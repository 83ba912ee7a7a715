/**
 * `skiff kill`: end a pane.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { killPane } from "../lib/ops/kill_pane.ts";

/** The `kill` command. */
export const command = defineCommand({
  name: "kill",
  summary: "End a pane's process and remove the pane",
  description:
    "Send SIGHUP to the pane's process (SIGKILL after 2 s if it stays) and remove the pane. Its id is never used again.",
  args: [PANE_ARG],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
  ],
  run: async (ctx) => {
    ctx.out.result(await killPane(ctx.args.PANE), () => {});
  },
});
