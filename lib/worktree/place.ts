/**
 * Where a project's worktrees live, and which names they may have.
 *
 * By default a worktree lives in Skiff's data folder,
 * `$XDG_DATA_HOME/skiff/worktrees/PROJECT/NAME` (`~/.local/share/skiff/…`):
 * outside the repository's own tree, so the repository's `git status`, its
 * file watchers, test runners and searches never walk into another agent's
 * copy, and an agent in a worktree does not read the instruction files of the
 * main checkout above it. A project may name another folder with
 * `worktrees = "PATH"` (relative to its root, so `"../api-worktrees"` is a
 * sibling folder).
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { dataDir } from "../config/paths.ts";
import type { Project } from "../config/config.ts";
import { SkiffError } from "../errors.ts";

/** What a worktree's name may hold: it names its folder and its default branch. */
export const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Throws exit `USAGE` for a name a worktree cannot have. */
export function checkWorktreeName(name: string): void {
  if (!WORKTREE_NAME.test(name) || name.endsWith(".lock") || name.includes("..")) {
    throw new SkiffError(
      `Bad worktree name '${name}': use 1 to 64 letters, digits, '.', '_' and '-', starting with a letter or digit`,
      { exit: "USAGE" },
    );
  }
}

/** The folder that holds `project`'s worktrees. */
export function worktreesFolder(project: Project): string {
  return project.worktrees ?? join(dataDir(), "worktrees", project.name);
}

/** The branch a new worktree gets when none is named. */
export function defaultBranch(name: string): string {
  return `skiff/${name}`;
}
