/**
 * Opening a pane again in a worktree Skiff made: `skiff new --project P
 * --worktree NAME` once the worktree's pane is gone. It may be opened when
 * it is there and no running pane holds it, and the request asks for
 * nothing a worktree that exists cannot give (another branch, another base).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { WorktreeRequest } from "./create.ts";
import type { PaneFacts } from "./describe.ts";
import type { WorktreeRecord } from "./records.ts";
import { missingReason } from "./status.ts";

/**
 * Throws when `record` cannot be opened again for `request`: a running pane
 * holds it (`holders`), it is missing, or the request names another branch
 * or a base (each exit `CONFLICT`, with the reason in the details).
 */
export function reopenCheck(
  record: WorktreeRecord,
  request: WorktreeRequest,
  holders: readonly PaneFacts[],
): void {
  const label = `${record.project}/${record.name}`;
  const conflict = (message: string, reason: string, details: Record<string, unknown> = {}) =>
    new SkiffError(message, { exit: "CONFLICT", details: { reason, worktree: label, ...details } });
  if (holders.length > 0) {
    const names = holders.map((p) => `${p.id} (${p.name})`).join(", ");
    throw conflict(
      `Worktree '${label}' is held by running pane ${names}: attach to it, or end it first and open the worktree again`,
      "worktree_held",
      { panes: holders.map((p) => p.id) },
    );
  }
  const missing = missingReason(record);
  if (missing) {
    throw conflict(
      `Worktree '${label}' is missing: ${missing}. 'skiff worktree prune' tidies its record; then the name is free`,
      "worktree_missing",
      { missing },
    );
  }
  if (request.branch !== undefined && request.branch !== record.branch) {
    throw conflict(
      `Worktree '${label}' exists on branch '${record.branch}', not '${request.branch}': leave out --branch to open it again, or pick another name`,
      "branch_taken",
    );
  }
  if (request.base !== undefined) {
    throw conflict(
      `Worktree '${label}' exists (its base is '${record.base}'): leave out --base to open it again, or pick another name`,
      "name_taken",
    );
  }
}
