/**
 * `skiff ls`: list panes.
 *
 * @module
 */

import { defineCommand, table } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { frontOf, tildePath } from "../lib/client/format.ts";

/** The `ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List panes",
  description:
    "List every pane: id, name, project, session, the agent or program in front, its state (starting, working, idle, waiting, exited, or shell when no known agent is in front), whether it is unread, folder and title. --json adds pid, generation, command, size and times.",
  exits: ["DAEMON"],
  run: async (ctx) => {
    const { panes } = await withDaemon((client) => client.call("pane.list"));
    ctx.out.result({ panes }, () => {
      if (panes.length === 0) {
        ctx.out.line("No panes. Start one with 'skiff new'.");
        return;
      }
      ctx.out.line(table(
        ["ID", "NAME", "PROJECT", "SESSION", "FRONT", "STATE", "UNREAD", "CWD", "TITLE"],
        panes.map((p) => [
          p.id,
          p.name,
          p.project ?? "-",
          p.session_name,
          p.agent ?? frontOf(p),
          p.state,
          p.unread ? "yes" : "-",
          tildePath(p.cwd),
          p.title,
        ]),
      ));
    });
  },
});
