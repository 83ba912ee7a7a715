/**
 * How a worktree reads in `skiff worktree ls`: its record, what git said at
 * its last inspection, and the pane that runs in it; and which running panes
 * are in it.
 *
 * @module
 */

import type { WorktreeInfo } from "../protocol/worktrees.ts";
import type { WorktreeRecord } from "./records.ts";
import type { Inspection } from "./status.ts";

/** A pane, as the worktrees need to know it. */
export interface PaneFacts {
  /** Its id. */
  id: string;
  /** Its name. */
  name: string;
  /** Whether its process runs. */
  status: "running" | "exited";
  /** Its working folder, as last seen. */
  cwd: string;
  /** The id of its worktree, if it was made with one. */
  worktree?: string;
}

/** Whether `path` is `folder` or inside it. */
export function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** The running panes in worktree `record`: made with it, or with their folder in it. */
export function panesIn(record: WorktreeRecord, panes: readonly PaneFacts[]): PaneFacts[] {
  return panes.filter((p) =>
    p.status === "running" && (p.worktree === record.id || inside(p.cwd, record.path))
  );
}

/** A worktree as `worktree ls` shows it, from an inspection. */
export function describeAs(
  record: WorktreeRecord,
  seen: Inspection,
  panes: readonly PaneFacts[],
): WorktreeInfo {
  const pane = panes.find((p) => p.worktree === record.id);
  return {
    id: record.id,
    project: record.project,
    name: record.name,
    branch: seen.status ? seen.status.branch ?? "(detached)" : record.branch,
    made_branch: record.branch,
    branch_created: record.branch_created,
    base: record.base,
    base_commit: record.base_commit,
    path: record.path,
    repo: record.repo,
    pane: pane ? { id: pane.id, name: pane.name, status: pane.status } : null,
    state: seen.missing ? "missing" : "ok",
    missing: seen.missing,
    dirty: seen.status ? seen.status.changed.length + seen.status.untracked.length > 0 : null,
    ahead: seen.ahead,
    behind: seen.behind,
    merged: seen.merged,
    landed: record.landed ? { ...record.landed } : null,
    subdir: record.subdir,
    diff: seen.changes ? { ...seen.changes.stat } : null,
    created: record.created,
  };
}
