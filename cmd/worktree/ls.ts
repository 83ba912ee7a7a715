/**
 * `skiff worktree ls`: the worktrees Skiff made, each with what git says;
 * `--branches`: the `skiff/*` branches whose worktree is gone.
 *
 * @module
 */

import { defineCommand, table, terminalWidth } from "../../lib/cli/mod.ts";
import { withDaemon } from "../../lib/client/mod.ts";
import { tildePath } from "../../lib/client/format.ts";
import type { LeftBranch } from "../../lib/protocol/worktrees.ts";
import { diffText, worktreeLabel, worktreeState } from "./format.ts";

/** The lines of `--branches`. */
function branchLines(branches: readonly LeftBranch[]): string {
  return table(
    ["BRANCH", "PROJECT", "BASE", "AHEAD", "BEHIND", "MERGED", "TIP"],
    branches.map((b) => [
      b.branch,
      b.project,
      b.base,
      String(b.ahead),
      String(b.behind),
      b.merged ? "yes" : "no",
      `${b.commit.slice(0, 12)} ${b.subject}`,
    ]),
    { width: terminalWidth() },
  );
}

/** The `worktree ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List the worktrees Skiff made: branch, base, pane, state, ahead, behind, diff",
  description:
    "List each worktree Skiff made: project and name, branch, base, its pane (or -), its state (clean; dirty when it holds uncommitted changes or untracked files; merged once its commits are all on the base; landed when 'skiff land' put them there; missing), commits ahead of the base and behind it, its changes against the base (files, +added -removed, untracked files included) and its folder. A worktree whose folder was removed by hand, or whose repository moved, shows as missing with one line saying why; 'skiff worktree prune' tidies such records. --branches lists instead the skiff/* branches whose worktree is gone, with how far each is from its base and whether it is merged ('skiff worktree prune --branches' deletes the merged ones).",
  options: [
    {
      name: "project",
      short: "p",
      type: "string",
      value: "P",
      help: "Only the worktrees of project P",
      complete: "project",
    },
    {
      name: "branches",
      type: "boolean",
      help: "List the skiff/* branches whose worktree is gone instead",
    },
  ],
  examples: [
    "skiff worktree ls",
    "skiff worktree ls --project api --json",
    "skiff worktree ls --branches",
  ],
  exits: [["NOT_FOUND", "No such project"], "DAEMON"],
  run: async (ctx) => {
    if (ctx.opts.branches) {
      const { branches } = await withDaemon((client) =>
        client.call("worktree.branches", { project: ctx.opts.project })
      );
      ctx.out.result({ branches }, () => {
        ctx.out.line(
          branches.length === 0 ? "No skiff/* branches without a worktree." : branchLines(branches),
        );
      });
      return;
    }
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
        ["WORKTREE", "BRANCH", "BASE", "PANE", "STATE", "AHEAD", "BEHIND", "DIFF", "PATH"],
        worktrees.map((w) => [
          worktreeLabel(w),
          w.branch,
          w.base,
          w.pane ? `${w.pane.id} (${w.pane.name})` : "-",
          worktreeState(w),
          w.ahead === null ? "-" : String(w.ahead),
          w.behind === null ? "-" : String(w.behind),
          diffText(w),
          tildePath(w.path),
        ]),
        // Cut to a terminal's width only: piped, every path stays whole.
        { width: terminalWidth() },
      ));
      for (const w of worktrees.filter((w) => w.state === "missing")) {
        ctx.out.line(
          `${worktreeLabel(w)} is missing: ${w.missing}. 'skiff worktree prune' tidies its record.`,
        );
      }
    });
  },
});
