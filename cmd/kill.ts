/**
 * `skiff kill`: end a pane.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `kill` command. */
export const command = defineCommand({
  name: "kill",
  summary: "End a pane's process and remove the pane",
  description:
    "Send SIGHUP to the pane's process (SIGKILL after 2 s if it stays) and remove the pane. Its id is never used again.",
  args: [PANE_ARG],
  exits: ["NOT_FOUND", "DAEMON"],
  run: async (ctx) => {
    const pane = await withDaemon((client) => client.call("pane.kill", { pane: ctx.args.PANE }), {
      pane: ctx.args.PANE,
    });
    ctx.out.result({ killed: pane }, () => {});
  },
});
