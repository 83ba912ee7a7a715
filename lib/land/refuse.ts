/**
 * The one way a landing refuses: a `SkiffError` with the exit code that
 * `lib/protocol/land.ts` names for the reason, and the reason's fields.
 *
 * @module
 */

import { type ExitName, SkiffError } from "../errors.ts";
import type { LandRefusalDetails, LandRefusalReason } from "../protocol/land.ts";

/** The exit code of each reason. */
const EXITS: Record<LandRefusalReason, ExitName> = {
  uncommitted: "CONFLICT",
  merge_conflict: "MERGE_CONFLICT",
  check_failed: "CHECK_FAILED",
  base_dirty: "CONFLICT",
  base_untracked: "CONFLICT",
  base_moved: "CONFLICT",
  branch_moved: "CONFLICT",
  base_not_branch: "CONFLICT",
  base_missing: "NOT_FOUND",
  detached: "CONFLICT",
  in_progress: "CONFLICT",
  pane_busy: "CONFLICT",
  worktree_missing: "NOT_FOUND",
  push_failed: "PUSH_FAILED",
  pr_failed: "PR_FAILED",
  interrupted: "ERROR",
};

/** The refusal for `reason`: one line, its exit code, and its fields. */
export function refusal(
  reason: LandRefusalReason,
  message: string,
  details: Omit<LandRefusalDetails, "reason"> = {},
): SkiffError {
  return new SkiffError(message, { exit: EXITS[reason], details: { reason, ...details } });
}

/** Up to `max` paths, then how many more: for a one-line message. */
export function someFiles(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).join(", ");
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}
