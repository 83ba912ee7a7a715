/**
 * Removing a worktree Skiff made, never losing work silently.
 *
 * {@linkcode removalLosses} lists what a removal would lose: uncommitted
 * changes and untracked files, and commits that no branch, tag or remote
 * branch holds and that are not on the base (with `--delete-branch`, the
 * worktree's own branch does not count as holding them). The caller refuses
 * unless forced; {@linkcode removeWorktree} then removes the folder (`git
 * worktree remove`), tidies git's entry, and deletes the branch when asked.
 *
 * @module
 */

import { plural } from "../words.ts";
import { SkiffError } from "../errors.ts";
import { gitComplaint, runGit } from "./git.ts";
import { parseStatus } from "./porcelain.ts";
import type { WorktreeRecord } from "./records.ts";
import { branchExists, holderOf, listWorktrees } from "./repo.ts";
import { baseCommit, missingReason } from "./status.ts";

/** Options for a removal. */
export interface RemovalOptions {
  /** Delete the branch too. */
  deleteBranch: boolean;
}

/** What a removal would lose, and what stops it whatever `--force` says. */
export interface Losses {
  /** What would be lost, one line each; empty when nothing would. */
  lines: string[];
  /** Why it cannot be removed even with `--force`, or null. */
  blocked: string | null;
  /** Whether its folder (or its repository) is gone. */
  missing: string | null;
}

function folderExists(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function some(paths: readonly string[], max = 3): string {
  const shown = paths.slice(0, max).join(", ");
  return paths.length > max ? `${shown}, …` : shown;
}

/** What removing `record` (and its branch, with `deleteBranch`) would lose. */
export async function removalLosses(
  record: WorktreeRecord,
  options: RemovalOptions,
): Promise<Losses> {
  const missing = missingReason(record);
  const repoThere = folderExists(record.repo);
  const lines: string[] = [];
  if (!repoThere) {
    // Without the repository git cannot tell what in the folder is committed.
    if (folderExists(record.path)) {
      lines.push(
        `its repository ${record.repo} is gone, so what in ${record.path} is not committed cannot be told: the folder would be deleted`,
      );
    }
    return { lines, blocked: null, missing };
  }
  const listed = (await listWorktrees(record.repo)).find((w) => w.path === record.path);
  if (listed?.locked !== null && listed?.locked !== undefined) {
    const why = listed.locked ? ` (${listed.locked})` : "";
    return {
      lines,
      blocked: `it is locked${why}: unlock it with 'git worktree unlock ${record.path}' first`,
      missing,
    };
  }
  const hasBranch = await branchExists(record.repo, record.branch);
  if (options.deleteBranch && hasBranch) {
    const holder = await holderOf(record.repo, record.branch);
    if (holder && holder.path !== record.path) {
      return {
        lines,
        blocked:
          `its branch '${record.branch}' is checked out in ${holder.path}, so it cannot be deleted`,
        missing,
      };
    }
  }
  const tips: string[] = [];
  if (!missing) {
    const status = await runGit(
      ["status", "--porcelain=v2", "-z", "--untracked-files=all"],
      { cwd: record.path, read: true },
    );
    if (status.code !== 0) {
      lines.push(
        `git cannot read ${record.path} (${gitComplaint(status)}), so its work is unknown`,
      );
    } else {
      const report = parseStatus(status.stdout);
      const parts: string[] = [];
      if (report.changed.length) parts.push(plural(report.changed.length, "changed file"));
      if (report.untracked.length) parts.push(plural(report.untracked.length, "untracked file"));
      if (parts.length) {
        lines.push(
          `uncommitted changes: ${parts.join(" and ")} (${
            some([...report.changed, ...report.untracked])
          })`,
        );
      }
      tips.push("HEAD");
    }
  }
  if (options.deleteBranch && hasBranch) tips.push(`refs/heads/${record.branch}`);
  if (tips.length) {
    const cwd = missing ? record.repo : record.path;
    const base = await baseCommit(record, cwd);
    // --exclude names a branch without refs/heads/ when it comes before --branches.
    const exclude = options.deleteBranch ? [`--exclude=${record.branch}`] : [];
    const log = await runGit([
      "log",
      "--format=%h %s",
      ...tips,
      "--not",
      ...exclude,
      "--branches",
      "--tags",
      "--remotes",
      base,
      "--",
    ], { cwd, read: true });
    const commits = new TextDecoder().decode(log.stdout).split("\n").filter((l) => l !== "");
    if (log.code === 0 && commits.length) {
      const where = options.deleteBranch && hasBranch ? `on branch '${record.branch}' and` : "that";
      lines.push(
        `${
          plural(commits.length, "commit")
        } ${where} on no other branch and not on the base '${record.base}' (${some(commits, 2)})`,
      );
    }
  }
  return { lines, blocked: null, missing };
}

/** What a removal did. */
export interface Removal {
  /** Whether the branch was deleted. */
  branchDeleted: boolean;
  /** Files git ignores that went with the folder, as git lists them (a folder once). */
  ignored: string[];
}

/**
 * Removes a worktree whose losses the caller accepted: its folder, git's
 * entry, and its branch with `deleteBranch`. Throws exit `CONFLICT` when git
 * refuses (nothing more is done then).
 */
export async function removeWorktree(
  record: WorktreeRecord,
  options: RemovalOptions & { force: boolean },
): Promise<Removal> {
  const repoThere = folderExists(record.repo);
  const folderThere = folderExists(record.path);
  let ignored: string[] = [];
  if (!repoThere) {
    if (folderThere) Deno.removeSync(record.path, { recursive: true });
    return { branchDeleted: false, ignored };
  }
  if (folderThere && !missingReason(record)) {
    const status = await runGit(
      ["status", "--porcelain=v2", "-z", "--ignored=matching", "--untracked-files=normal"],
      { cwd: record.path, read: true },
    );
    ignored = new TextDecoder().decode(status.stdout).split("\0")
      .filter((f) => f.startsWith("! ")).map((f) => f.slice(2));
    const args = ["worktree", "remove", ...(options.force ? ["--force"] : []), record.path];
    const removed = await runGit(args, { cwd: record.repo });
    if (removed.code !== 0) {
      throw new SkiffError(
        `git did not remove worktree '${record.name}': ${gitComplaint(removed)}`,
        { exit: "CONFLICT", details: { reason: "git_refused" } },
      );
    }
  } else {
    // The folder went by hand: tidy git's entry for it.
    await runGit(["worktree", "prune"], { cwd: record.repo });
  }
  let branchDeleted = false;
  if (options.deleteBranch && await branchExists(record.repo, record.branch)) {
    const deleted = await runGit(["branch", "-D", record.branch], { cwd: record.repo });
    if (deleted.code !== 0) {
      throw new SkiffError(
        `The worktree is removed, but git did not delete branch '${record.branch}': ${
          gitComplaint(deleted)
        }`,
        { exit: "CONFLICT", details: { reason: "git_refused" } },
      );
    }
    branchDeleted = true;
  }
  return { branchDeleted, ignored };
}

/** Tidies git's entry for a worktree whose folder went by hand (prune), as far as git can. */
export async function pruneGitEntry(record: WorktreeRecord): Promise<void> {
  if (!folderExists(record.repo)) return;
  try {
    await runGit(["worktree", "prune"], { cwd: record.repo });
  } catch {
    // No git: its entry stays until git prunes it itself; the record goes.
  }
}

/**
 * How many commits on `record`'s branch are on no other branch, tag or
 * remote branch and not on the base: what only that branch keeps once its
 * worktree is gone (0 when the branch is gone, or git cannot tell).
 */
export async function uniqueCommits(record: WorktreeRecord): Promise<number> {
  if (!folderExists(record.repo) || !await branchExists(record.repo, record.branch)) return 0;
  const base = await baseCommit(record, record.repo);
  const counted = await runGit([
    "rev-list",
    "--count",
    `refs/heads/${record.branch}`,
    "--not",
    // --exclude names a branch without refs/heads/ when it comes before --branches.
    `--exclude=${record.branch}`,
    "--branches",
    "--tags",
    "--remotes",
    base,
    "--",
  ], { cwd: record.repo, read: true });
  if (counted.code !== 0) return 0;
  return Number(new TextDecoder().decode(counted.stdout).trim()) || 0;
}
