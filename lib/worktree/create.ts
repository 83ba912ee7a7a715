/**
 * Making a worktree for a new pane, in two steps: {@linkcode planWorktree}
 * checks everything and changes nothing, so every refusal leaves the
 * repository as it was; {@linkcode makeWorktree} runs `git worktree add`.
 * {@linkcode unmakeWorktree} takes a worktree that was just made away again
 * when its pane could not start, so no worktree is left behind.
 *
 * @module
 */

import { dirname, join } from "../platform/path.ts";
import type { Project } from "../config/config.ts";
import { SkiffError } from "../errors.ts";
import { gitComplaint, runGit } from "./git.ts";
import { checkWorktreeName, defaultBranch, worktreesFolder } from "./place.ts";
import {
  branchExists,
  commitOf,
  currentBranch,
  holderOf,
  listWorktrees,
  type RepoPlace,
  repoPlace,
  validBranchName,
} from "./repo.ts";
import type { NewRecord, WorktreeRecord } from "./records.ts";

/** What `new --worktree` asks for. */
export interface WorktreeRequest {
  /** The project whose repository gets the worktree. */
  project: Project;
  /** The worktree's name. */
  name: string;
  /** The branch to make, or an existing one to check out. */
  branch?: string;
  /** Where a new branch starts (default: the project's HEAD). */
  base?: string;
}

/** A worktree that can be made: every check passed. */
export interface WorktreePlan {
  /** The record to keep for it (without an id yet). */
  record: NewRecord;
  /** Whether the branch exists already (it is checked out, not made). */
  branchExists: boolean;
  /** The folder the pane starts in: the project's root in the worktree. */
  cwd: string;
}

/** How long `git worktree add` may take: a big checkout is slow. */
const ADD_TIMEOUT_MS = 600_000;

function conflict(message: string, reason: string, details: Record<string, unknown> = {}) {
  return new SkiffError(message, { exit: "CONFLICT", details: { reason, ...details } });
}

function isEmptyFolder(path: string): boolean | null {
  try {
    if (!Deno.statSync(path).isDirectory) return false;
  } catch {
    return null;
  }
  for (const _ of Deno.readDirSync(path)) return false;
  return true;
}

/**
 * Checks a request and returns what to make. Refusals, each one line: a bad
 * name or branch name, or a project outside Git (exit `USAGE`); no commit to
 * start from, or no git (exit `NOT_FOUND`); a name, branch or folder taken
 * (exit `CONFLICT`). `taken` says whether the project has a worktree of that
 * name in Skiff's records already.
 */
export async function planWorktree(
  request: WorktreeRequest,
  taken: (project: string, name: string) => WorktreeRecord | undefined,
): Promise<WorktreePlan> {
  const { project, name } = request;
  checkWorktreeName(name);
  const existing = taken(project.name, name);
  if (existing) {
    throw conflict(
      `Project '${project.name}' has a worktree named '${name}' already (${existing.path}): pick another name, or remove it with 'skiff worktree rm ${project.name}/${name}'`,
      "name_taken",
    );
  }
  const place: RepoPlace = await repoPlace(project.root, `Project '${project.name}'`);
  const base = await planBase(place, project, request.base);
  const branch = request.branch ?? defaultBranch(name);
  if (!await validBranchName(place.top, branch)) {
    throw new SkiffError(`Bad branch name '${branch}'`, { exit: "USAGE" });
  }
  const exists = await branchExists(place.top, branch);
  if (exists && request.branch === undefined) {
    throw conflict(
      `Branch '${branch}' exists already: check it out with --branch ${branch}, or pick another name`,
      "branch_taken",
    );
  }
  if (exists) {
    const holder = await holderOf(place.top, branch);
    if (holder) {
      throw conflict(
        `Branch '${branch}' is checked out in ${holder.path} already`,
        "branch_taken",
        {
          holder: holder.path,
        },
      );
    }
  }
  const path = join(worktreesFolder(project), name);
  if (isEmptyFolder(path) === false) {
    throw conflict(`Folder ${path} exists already`, "folder_taken", { path });
  }
  if ((await listWorktrees(place.top)).some((w) => w.path === path)) {
    throw conflict(
      `Git still lists a worktree at ${path}: run 'git worktree prune' in ${place.main}`,
      "folder_taken",
      { path },
    );
  }
  return {
    record: {
      project: project.name,
      name,
      branch,
      branch_created: !exists,
      base: base.name,
      base_commit: base.commit,
      repo: place.main,
      subdir: place.prefix,
      path,
      pane: null,
      created: new Date().toISOString(),
    },
    branchExists: exists,
    cwd: place.prefix ? join(path, place.prefix) : path,
  };
}

async function planBase(
  place: RepoPlace,
  project: Project,
  named: string | undefined,
): Promise<{ name: string; commit: string }> {
  if (named !== undefined) {
    const commit = named.startsWith("-") ? null : await commitOf(place.top, named);
    if (!commit) {
      throw new SkiffError(
        `Base '${named}' does not exist in the repository of project '${project.name}'`,
        { exit: "NOT_FOUND", details: { reason: "base_missing", base: named } },
      );
    }
    return { name: named, commit };
  }
  const commit = await commitOf(place.top, "HEAD");
  if (!commit) {
    throw new SkiffError(
      `Project '${project.name}' has no commit to start a worktree from: commit first, or name a base with --base`,
      { exit: "NOT_FOUND", details: { reason: "base_missing", base: "HEAD" } },
    );
  }
  return { name: await currentBranch(place.top) ?? commit, commit };
}

/** Runs `git worktree add` for a plan whose record is saved. Throws exit `ERROR` when git fails. */
export async function makeWorktree(record: WorktreeRecord, plan: WorktreePlan): Promise<void> {
  const parent = dirname(record.path);
  Deno.mkdirSync(parent, { recursive: true });
  const args = plan.branchExists
    ? ["worktree", "add", record.path, record.branch]
    : ["worktree", "add", "-b", record.branch, record.path, record.base_commit];
  const result = await runGit(args, { cwd: record.repo, timeoutMs: ADD_TIMEOUT_MS });
  if (result.code !== 0) {
    throw new SkiffError(`git worktree add failed: ${gitComplaint(result)}`, {
      exit: "ERROR",
      details: { path: record.path },
    });
  }
}

/**
 * Takes away a worktree that was just made (its pane could not start): the
 * folder, git's entry for it, and the branch when Skiff made it and it still
 * points at its base. Nothing in it is the person's work yet.
 */
export async function unmakeWorktree(record: WorktreeRecord): Promise<void> {
  const cwd = record.repo;
  await runGit(["worktree", "remove", "--force", record.path], { cwd });
  if (
    record.branch_created &&
    await commitOf(cwd, `refs/heads/${record.branch}`) === record.base_commit
  ) {
    await runGit(["branch", "-D", record.branch], { cwd });
  }
}
