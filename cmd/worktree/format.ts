/**
 * How worktrees read in text: their state and their changes.
 *
 * @module
 */

import { plural } from "../../lib/words.ts";
import type { WorktreeInfo } from "../../lib/protocol/worktrees.ts";

/** `project/name`. */
export function worktreeLabel(tree: WorktreeInfo): string {
  return `${tree.project}/${tree.name}`;
}

/**
 * `missing`, `dirty`, `landed` (clean, and on the base as Skiff landed it),
 * `merged` (clean, and its commits are on the base) or `clean`.
 */
export function worktreeState(tree: WorktreeInfo): string {
  if (tree.state === "missing") return "missing";
  if (tree.dirty) return "dirty";
  if (tree.merged && tree.landed) return "landed";
  return tree.merged ? "merged" : "clean";
}

/** `3 files +12 -4`, or `-` when missing. */
export function diffText(tree: WorktreeInfo): string {
  if (!tree.diff) return "-";
  const { files, added, removed } = tree.diff;
  return `${plural(files, "file")} +${added} -${removed}`;
}
