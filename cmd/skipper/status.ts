/**
 * `skiff skipper status`: the Skiff agent's session, pane, agent, state and
 * folder, without starting anything.
 *
 * @module
 */

import { defineCommand, Exit } from "../../lib/cli/mod.ts";
import { skiffAgentStatus } from "../../lib/skipper/mod.ts";
import { statusLines } from "./format.ts";

/** The `skipper status` command. */
export const command = defineCommand({
  name: "status",
  summary: "Show the Skiff agent's session, pane, agent, state and folder",
  description:
    "Show whether the Skiff agent's session runs, its pane, agent, state and folder, and the watcher's health once there is a watcher. Starts nothing: not skiffd, not the session.",
  exits: [["NOT_FOUND", "The Skiff agent's session does not run"]],
  run: async (ctx) => {
    const status = await skiffAgentStatus();
    ctx.out.result(status, () => ctx.out.line(statusLines(status).join("\n")));
    return status.running ? Exit.OK : Exit.NOT_FOUND;
  },
});
