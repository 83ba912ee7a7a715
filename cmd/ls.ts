/**
 * `skiff ls`: list panes.
 *
 * @module
 */

import { defineCommand, outputWidth, SkiffError, table } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { frontOf, tildePath } from "../lib/client/format.ts";

/** Reads `KEY` or `KEY=VALUE`. */
function parseMark(text: string): { key: string; value?: string } {
  const eq = text.indexOf("=");
  const key = eq === -1 ? text : text.slice(0, eq);
  if (key === "") {
    throw new SkiffError(`Bad mark '${text}': use KEY or KEY=VALUE`, { exit: "USAGE" });
  }
  return eq === -1 ? { key } : { key, value: text.slice(eq + 1) };
}

/** The `ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List panes",
  description:
    "List every pane: id, name, project, the branch of its worktree (see 'skiff new --worktree'), session, the agent or program in front, its state (starting, working, idle, waiting, exited, or shell when no known agent is in front), whether it is unread (and why), folder and title. --json adds pid, generation, command, size, times, the person's keystroke count (person_inputs), the session's marks, and the pane's worktree (name, branch, path) and diff (files, added, removed: its changes against the base, counted after each turn end and by 'skiff diff'), or null.",
  options: [
    {
      name: "mark",
      type: "string",
      value: "KEY[=VALUE]",
      help: "Only panes whose session has mark KEY (with VALUE, when given)",
    },
  ],
  examples: ["skiff ls --mark skiff-agent --json"],
  exits: ["DAEMON"],
  run: async (ctx) => {
    const mark = ctx.opts.mark === undefined ? undefined : parseMark(ctx.opts.mark);
    const { panes } = await withDaemon((client) => client.call("pane.list", { mark }));
    ctx.out.result({ panes }, () => {
      if (panes.length === 0) {
        ctx.out.line(
          mark
            ? `No pane's session has mark ${ctx.opts.mark}.`
            : "No panes. Start one with 'skiff new'.",
        );
        return;
      }
      ctx.out.line(table(
        ["ID", "NAME", "PROJECT", "BRANCH", "SESSION", "FRONT", "STATE", "UNREAD", "CWD", "TITLE"],
        panes.map((p) => [
          p.id,
          p.name,
          p.project ?? "-",
          p.worktree?.branch ?? "-",
          p.session_name,
          p.agent ?? frontOf(p),
          p.state,
          p.unread ? (p.unread_reasons.join(",") || "yes") : "-",
          tildePath(p.cwd),
          p.title,
        ]),
        { width: outputWidth() },
      ));
    });
  },
});
