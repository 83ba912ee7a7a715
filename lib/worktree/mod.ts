/**
 * Git worktrees for panes: `skiff new --worktree` gives a pane a worktree of
 * its project's repository, so agents working side by side never edit the
 * same checkout. Real `git` runs through one module (`git.ts`), and its
 * porcelain output is read in another (`porcelain.ts`). skiffd keeps the
 * records and asks {@linkcode Worktrees} for everything else; `skiff diff`
 * reads a worktree's patch with {@linkcode worktreeDiff}.
 *
 * Nothing here removes work without being told to: a removal first says
 * what would be lost, and ending a pane never touches its worktree.
 *
 * @module
 */

export { type MadeWorktree, type PaneFacts, projectNamed, Worktrees } from "./service.ts";
export { inside, panesIn } from "./describe.ts";
export type { WorktreeRequest } from "./create.ts";
export type { WorktreePlace, WorktreeRecord } from "./records.ts";
export { type WorktreeDiff, worktreeDiff } from "./diff.ts";
export type { FileChange } from "./status.ts";
export { checkWorktreeName, defaultBranch, worktreesFolder } from "./place.ts";
export {
  gitComplaint,
  gitMaybe,
  gitMissing,
  gitPager,
  type GitResult,
  gitText,
  runGit,
} from "./git.ts";
export { parseStatus, type StatusReport } from "./porcelain.ts";
export { commitOf, inRepository, listWorktrees } from "./repo.ts";
export type { ListedWorktree } from "./porcelain.ts";
export { aheadBehind, baseCommit, missingReason } from "./status.ts";
