/**
 * `skiff kill`: end a pane.
 *
 * @module
 */

import { arg, type CommandSpec } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `kill` command. */
export const command: CommandSpec = {
  name: "kill",
  summary: "End a pane's process and remove the pane",
  description:
    "Send SIGHUP to the pane's process (SIGKILL after 2 s if it stays) and remove the pane. Its id is never used again.",
  args: [{ name: "PANE", required: true, help: "Pane id, name, or project/name" }],
  exitCodes: [[3, "No such pane"], [4, "skiffd could not be reached"]],
  run: async (ctx) => {
    const pane = await withDaemon((client) => client.call("pane.kill", { pane: arg(ctx, "PANE") }));
    ctx.out.result({ killed: pane }, () => {});
  },
};
