/**
 * `skiff worktree rm`: remove a worktree Skiff made, never losing work
 * unless told to.
 *
 * @module
 */

import { plural } from "../../lib/words.ts";
import { defineCommand } from "../../lib/cli/mod.ts";
import { withDaemon } from "../../lib/client/mod.ts";
import { worktreeLabel } from "./format.ts";

/** The `worktree rm` command. */
export const command = defineCommand({
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a worktree Skiff made (its branch stays unless --delete-branch)",
  description:
    "Remove a worktree's folder and git's entry for it (name it, or a pane in it). It refuses, saying what would be lost, a worktree with uncommitted changes or untracked files, or with commits that no branch holds and that are not on the base; and one a running pane is in. --force removes it anyway, ending its panes first. The branch stays unless --delete-branch (when it alone holds commits, the output says how many), which refuses a branch with commits on no other branch and not on the base, unless --force. Files git ignores go with the folder; the output lists them.",
  args: [
    {
      name: "NAME",
      required: true,
      help: "The worktree: NAME, or PROJECT/NAME, or a pane in it",
      complete: "worktree",
    },
  ],
  options: [
    {
      name: "force",
      short: "f",
      type: "boolean",
      help: "Remove it even when work would be lost; end the panes in it first",
    },
    { name: "delete-branch", type: "boolean", help: "Delete its branch too" },
  ],
  examples: [
    "skiff worktree rm login",
    "skiff worktree rm api/login --delete-branch",
  ],
  exits: [
    ["USAGE", "Bad usage, or a name in several projects (name PROJECT/NAME)"],
    ["NOT_FOUND", "No such worktree, or no git"],
    "DAEMON",
    [
      "CONFLICT",
      "Work would be lost, a pane runs in it, it is locked, or another worktree holds its branch; nothing was changed",
    ],
  ],
  run: async (ctx) => {
    const removed = await withDaemon((client) =>
      client.call("worktree.remove", {
        worktree: ctx.args.NAME,
        force: ctx.opts.force,
        delete_branch: ctx.opts["delete-branch"],
      })
    );
    ctx.out.result(removed, () => {
      const tree = removed.worktree;
      for (const pane of removed.panes_killed) ctx.out.line(`Ended pane ${pane}`);
      const unique = removed.unique_commits;
      const branch = removed.branch_deleted
        ? `branch ${tree.made_branch} deleted`
        : unique > 0
        ? `branch ${tree.made_branch} kept: it alone holds ${plural(unique, "commit")}`
        : `branch ${tree.made_branch} kept`;
      ctx.out.line(`Removed worktree ${worktreeLabel(tree)} (${branch})`);
      for (const line of removed.discarded) ctx.out.line(`Discarded: ${line}`);
      if (removed.ignored.length > 0) {
        ctx.out.line(`Ignored files that went with it: ${removed.ignored.join(", ")}`);
      }
    });
  },
});
