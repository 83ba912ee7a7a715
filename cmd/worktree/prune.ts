/**
 * `skiff worktree prune`: drop the records of worktrees that are gone, and
 * with `--branches` delete the merged `skiff/*` branches whose worktree is gone.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { withDaemon } from "../../lib/client/mod.ts";
import { worktreeLabel } from "./format.ts";

/** The `worktree prune` command. */
export const command = defineCommand({
  name: "prune",
  summary: "Drop the records of worktrees whose folder or repository is gone",
  description:
    "Drop Skiff's record of each worktree that shows as missing in 'skiff worktree ls' (its folder removed by hand, or its repository moved), and tidy git's entry for it. Worktrees that are there are never touched, and no branch is deleted unless --branches: then each skiff/* branch whose worktree is gone and whose commits are all on its base (the branch the main checkout has checked out) is deleted too, with a compare-and-swap on the tip it had; a branch with commits the base lacks is never deleted (see 'skiff worktree ls --branches').",
  options: [
    { name: "dry-run", type: "boolean", help: "Only say what would go" },
    {
      name: "branches",
      type: "boolean",
      help: "Also delete the merged skiff/* branches whose worktree is gone",
    },
  ],
  examples: [
    "skiff worktree prune --dry-run",
    "skiff worktree prune",
    "skiff worktree prune --branches",
  ],
  exits: ["DAEMON"],
  run: async (ctx) => {
    const result = await withDaemon((client) =>
      client.call("worktree.prune", {
        dry_run: ctx.opts["dry-run"],
        branches: ctx.opts.branches,
      })
    );
    ctx.out.result(result, () => {
      const verb = result.dry_run ? "Would prune" : "Pruned";
      if (result.pruned.length === 0) ctx.out.line("No missing worktrees.");
      for (const tree of result.pruned) {
        ctx.out.line(`${verb} ${worktreeLabel(tree)}: ${tree.missing}`);
      }
      const deleted = result.branches_deleted;
      if (deleted === undefined) return;
      if (deleted.length === 0) ctx.out.line("No merged skiff/* branches without a worktree.");
      for (const branch of deleted) {
        ctx.out.line(
          `${result.dry_run ? "Would delete" : "Deleted"} branch ${branch.branch} (${
            branch.commit.slice(0, 12)
          }, merged into ${branch.base})`,
        );
      }
    });
  },
});
