/**
 * `skiff worktree`: the git worktrees Skiff made for panes (`skiff new
 * --worktree`). Each subcommand lives in `cmd/worktree/`.
 *
 * @module
 */

import type { CommandSpec } from "../lib/cli/mod.ts";
import { command as ls } from "./worktree/ls.ts";
import { command as prune } from "./worktree/prune.ts";
import { command as rm } from "./worktree/rm.ts";

/** The `worktree` command group. */
export const command: CommandSpec = {
  name: "worktree",
  summary: "List, remove or prune the git worktrees Skiff made for panes",
  description:
    "'skiff new --project P --worktree NAME' gives a pane a git worktree of the project's repository, on its own branch. These commands list them with what git says about each, remove one without losing work unless told to, and prune the records of worktrees removed by hand. Killing a pane never removes its worktree.",
  subcommands: [ls, rm, prune],
};
