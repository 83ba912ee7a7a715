/**
 * `skiff ls`: list panes.
 *
 * @module
 */

import { type CommandSpec, table } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { frontOf, tildePath } from "../lib/client/format.ts";
import type { PaneInfo } from "../lib/daemon/pane_info.ts";

/** The `ls` command. */
export const command: CommandSpec = {
  name: "ls",
  aliases: ["list"],
  summary: "List panes",
  description:
    "List every pane: id, name, project, session, what runs in front, folder and title. --json adds pid, generation, command, size and times.",
  exitCodes: [[4, "skiffd could not be reached"]],
  run: async (ctx) => {
    const { panes } = await withDaemon((client) => client.call<{ panes: PaneInfo[] }>("pane.list"));
    ctx.out.result({ panes }, () => {
      if (panes.length === 0) {
        ctx.out.line("No panes. Start one with 'skiff new'.");
        return;
      }
      ctx.out.line(table(
        ["ID", "NAME", "PROJECT", "SESSION", "FRONT", "CWD", "TITLE"],
        panes.map((p) => [
          p.id,
          p.name,
          p.project ?? "-",
          p.session_name,
          frontOf(p),
          tildePath(p.cwd),
          p.title,
        ]),
      ));
    });
  },
};
