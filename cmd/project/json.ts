/**
 * The JSON form of a project, for `skiff project … --json`.
 *
 * @module
 */

import type { Project } from "../../lib/config/mod.ts";
import { worktreesFolder } from "../../lib/worktree/place.ts";

/** A project as `--json` prints it: `worktrees` is the folder its worktrees go in. */
export function projectJson(
  p: Project,
): { name: string; root: string; command: string[] | null; worktrees: string } {
  return { name: p.name, root: p.root, command: p.command ?? null, worktrees: worktreesFolder(p) };
}
