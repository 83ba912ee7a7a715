/**
 * How worktrees read in text: their state and their changes.
 *
 * @module
 */

import type { WorktreeInfo } from "../../lib/protocol/worktrees.ts";

/** `project/name`. */
export function worktreeLabel(tree: WorktreeInfo): string {
  return `${tree.project}/${tree.name}`;
}

/** `clean`, `dirty` or `missing`. */
export function worktreeState(tree: WorktreeInfo): string {
  if (tree.state === "missing") return "missing";
  return tree.dirty ? "dirty" : "clean";
}

/** `3 files +12 -4`, or `-` when missing. */
export function diffText(tree: WorktreeInfo): string {
  if (!tree.diff) return "-";
  const { files, added, removed } = tree.diff;
  return `${files} file${files === 1 ? "" : "s"} +${added} -${removed}`;
}
