/**
 * `skiff worktree prune`: drop the records of worktrees that are gone.
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
    "Drop Skiff's record of each worktree that shows as missing in 'skiff worktree ls' (its folder removed by hand, or its repository moved), and tidy git's entry for it. Worktrees that are there are never touched, and no branch is deleted.",
  options: [{ name: "dry-run", type: "boolean", help: "Only say which records would go" }],
  examples: ["skiff worktree prune --dry-run", "skiff worktree prune"],
  exits: ["DAEMON"],
  run: async (ctx) => {
    const result = await withDaemon((client) =>
      client.call("worktree.prune", { dry_run: ctx.opts["dry-run"] })
    );
    ctx.out.result(result, () => {
      if (result.pruned.length === 0) {
        ctx.out.line("No missing worktrees.");
        return;
      }
      const verb = result.dry_run ? "Would prune" : "Pruned";
      for (const tree of result.pruned) {
        ctx.out.line(`${verb} ${worktreeLabel(tree)}: ${tree.missing}`);
      }
    });
  },
});
