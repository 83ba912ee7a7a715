/**
 * `skiff worktree ls`: the worktrees Skiff made, each with what git says.
 *
 * @module
 */

import { defineCommand, outputWidth, table } from "../../lib/cli/mod.ts";
import { withDaemon } from "../../lib/client/mod.ts";
import { tildePath } from "../../lib/client/format.ts";
import { diffText, worktreeLabel, worktreeState } from "./format.ts";

/** The `worktree ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List the worktrees Skiff made: branch, base, pane, clean or dirty, ahead, diff",
  description:
    "List each worktree Skiff made: project and name, branch, base, its pane (or -), clean, dirty or missing, commits ahead of the base, its changes against the base (files, +added -removed, untracked files included) and its folder. A worktree whose folder was removed by hand, or whose repository moved, shows as missing with one line saying why; 'skiff worktree prune' tidies such records.",
  options: [
    {
      name: "project",
      short: "p",
      type: "string",
      value: "P",
      help: "Only the worktrees of project P",
      complete: "project",
    },
  ],
  examples: ["skiff worktree ls", "skiff worktree ls --project api --json"],
  exits: [["NOT_FOUND", "No such project"], "DAEMON"],
  run: async (ctx) => {
    const { worktrees } = await withDaemon((client) =>
      client.call("worktree.list", { project: ctx.opts.project })
    );
    ctx.out.result({ worktrees }, () => {
      if (worktrees.length === 0) {
        ctx.out.line(
          "No worktrees. Start a pane in one with 'skiff new --project P --worktree NAME'.",
        );
        return;
      }
      ctx.out.line(table(
        ["WORKTREE", "BRANCH", "BASE", "PANE", "STATE", "AHEAD", "DIFF", "PATH"],
        worktrees.map((w) => [
          worktreeLabel(w),
          w.branch,
          w.base,
          w.pane ? `${w.pane.id} (${w.pane.name})` : "-",
          worktreeState(w),
          w.ahead === null ? "-" : String(w.ahead),
          diffText(w),
          tildePath(w.path),
        ]),
        { width: outputWidth() },
      ));
      for (const w of worktrees.filter((w) => w.state === "missing")) {
        ctx.out.line(
          `${worktreeLabel(w)} is missing: ${w.missing}. 'skiff worktree prune' tidies its record.`,
        );
      }
    });
  },
});
