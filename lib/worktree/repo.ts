/**
 * Questions about a repository, each answered by git: where its top is,
 * what a ref names, which branches exist and which worktree holds them.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { gitMaybe, runGit } from "./git.ts";
import { type ListedWorktree, parseWorktreeList } from "./porcelain.ts";

/** Where a folder sits in its repository. */
export interface RepoPlace {
  /** The top folder of the worktree the folder is in. */
  top: string;
  /** The top folder of the repository's main worktree. */
  main: string;
  /** The folder's path below `top` ("" at the top). */
  prefix: string;
}

/**
 * Where `folder` sits in its repository. Throws exit `USAGE` when it is in
 * none (or only in a bare one), or is not there, naming `what` (such as
 * `Project 'api'`).
 */
export async function repoPlace(folder: string, what: string): Promise<RepoPlace> {
  let isFolder = false;
  try {
    isFolder = Deno.statSync(folder).isDirectory;
  } catch {
    // Missing: said below.
  }
  if (!isFolder) {
    throw new SkiffError(`${what}: its folder ${folder} does not exist`, {
      exit: "USAGE",
      details: { reason: "no_folder", folder },
    });
  }
  const result = await runGit(
    ["rev-parse", "--show-toplevel", "--show-prefix", "--path-format=absolute", "--git-common-dir"],
    { cwd: folder, read: true },
  );
  const lines = new TextDecoder().decode(result.stdout).split("\n");
  if (result.code !== 0 || lines.length < 3 || lines[0] === "") {
    throw new SkiffError(`${what} (${folder}) is not in a Git repository`, {
      exit: "USAGE",
      details: { reason: "not_a_repository", folder },
    });
  }
  const top = lines[0];
  const prefix = lines[1].replace(/\/$/, "");
  // The common dir is `<main>/.git` for a repository with a work tree.
  const common = lines[2];
  const main = common.endsWith("/.git") ? common.slice(0, -"/.git".length) : top;
  return { top, main, prefix };
}

/**
 * Whether `folder` is in a Git repository with a work tree, so a worktree of
 * it can be made; false too when it is missing or git cannot run.
 */
export async function inRepository(folder: string): Promise<boolean> {
  try {
    await repoPlace(folder, "The folder");
    return true;
  } catch {
    return false;
  }
}

/** The commit `ref` names in the repository at `cwd`, or null when it names none. */
export function commitOf(cwd: string, ref: string): Promise<string | null> {
  return gitMaybe(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], {
    cwd,
    read: true,
  });
}

/** The branch HEAD is on (without `refs/heads/`), or null when it is detached. */
export function currentBranch(cwd: string): Promise<string | null> {
  return gitMaybe(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd, read: true });
}

/** Whether branch `name` exists. */
export async function branchExists(cwd: string, name: string): Promise<boolean> {
  return (await gitMaybe(["rev-parse", "--verify", "--quiet", `refs/heads/${name}`], {
    cwd,
    read: true,
  })) !== null;
}

/** Whether `name` can be a branch's name. */
export async function validBranchName(cwd: string, name: string): Promise<boolean> {
  if (name.startsWith("-")) return false;
  return (await runGit(["check-ref-format", "--branch", name], { cwd, read: true })).code === 0;
}

/** Every worktree of the repository at `cwd`. */
export async function listWorktrees(cwd: string): Promise<ListedWorktree[]> {
  const result = await runGit(["worktree", "list", "--porcelain", "-z"], { cwd, read: true });
  return result.code === 0 ? parseWorktreeList(result.stdout) : [];
}

/** The worktree that has `branch` checked out, if any. */
export async function holderOf(cwd: string, branch: string): Promise<ListedWorktree | undefined> {
  return (await listWorktrees(cwd)).find((w) => w.branch === branch);
}
