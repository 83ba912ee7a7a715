/**
 * What a landing needs to know about a checkout (the worktree, or the one
 * that has the base checked out): its git folders, the commit and branch it
 * is on, its uncommitted files, and whether a rebase or a merge is under way
 * in it. Everything here only reads.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { pathExists } from "../platform/files.ts";
import { SkiffError } from "../errors.ts";
import { gitComplaint, parseStatus, runGit } from "../worktree/mod.ts";

/** A checkout's git folders. */
export interface GitPlace {
  /** The checkout's top folder. */
  top: string;
  /** Its own git folder (`.git`, or `.git/worktrees/NAME` for a worktree). */
  gitDir: string;
  /** The repository's shared git folder (refs, objects). */
  commonDir: string;
  /** Its index file. */
  index: string;
}

/** A checkout as a landing sees it. */
export interface CheckoutState extends GitPlace {
  /** The commit checked out, or null before the first commit. */
  head: string | null;
  /** The branch checked out, or null when HEAD is detached. */
  branch: string | null;
  /** Tracked files with changes, staged or not. */
  changed: string[];
  /** Untracked files (not ignored ones). */
  untracked: string[];
  /** Files with unresolved conflicts in the index. */
  unmerged: string[];
  /** The operation under way there (`rebase`, `merge`, …), or null. */
  operation: string | null;
}

/** The markers git leaves in a checkout's own git folder while an operation is under way. */
const OPERATIONS: [string, string][] = [
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase"],
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
  ["BISECT_LOG", "bisect"],
];

const decoder = new TextDecoder();

/** The git folders of the checkout at `cwd`. */
export async function gitPlace(cwd: string): Promise<GitPlace> {
  const result = await runGit(
    ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
    { cwd, read: true },
  );
  const lines = decoder.decode(result.stdout).split("\n");
  if (result.code !== 0 || lines.length < 3) {
    throw new SkiffError(`${cwd} is not a Git checkout: ${gitComplaint(result)}`, {
      exit: "NOT_FOUND",
      details: { reason: "worktree_missing" },
    });
  }
  const [top, gitDir, commonDir] = lines;
  return { top, gitDir, commonDir, index: join(gitDir, "index") };
}

/** The operation under way in a checkout whose own git folder is `gitDir`, or null. */
export function operationIn(gitDir: string): string | null {
  for (const [marker, name] of OPERATIONS) {
    if (pathExists(join(gitDir, marker))) return name;
  }
  return null;
}

/** Reads the checkout at `cwd`: its place, HEAD, branch, changes and any operation under way. */
export async function readCheckout(cwd: string): Promise<CheckoutState> {
  const place = await gitPlace(cwd);
  const status = await runGit(
    ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"],
    { cwd, read: true, timeoutMs: 120_000 },
  );
  if (status.code !== 0) {
    throw new SkiffError(`git cannot read ${cwd}: ${gitComplaint(status)}`, {
      exit: "NOT_FOUND",
      details: { reason: "worktree_missing" },
    });
  }
  const report = parseStatus(status.stdout);
  const unmerged = decoder.decode(status.stdout).split("\0")
    .filter((f) => f.startsWith("u ")).map((f) => f.split(" ").slice(10).join(" "));
  return {
    ...place,
    head: report.head,
    branch: report.branch,
    changed: report.changed,
    untracked: report.untracked,
    unmerged,
    operation: operationIn(place.gitDir),
  };
}

/** The folder of the checkout that has `branch` checked out, from `git worktree list`, or null. */
export async function checkoutOf(repo: string, branch: string): Promise<string | null> {
  const result = await runGit(["worktree", "list", "--porcelain", "-z"], { cwd: repo, read: true });
  if (result.code !== 0) return null;
  let path: string | null = null;
  for (const field of decoder.decode(result.stdout).split("\0")) {
    if (field.startsWith("worktree ")) path = field.slice("worktree ".length);
    else if (field === `branch refs/heads/${branch}` && path !== null) {
      // A checkout whose folder is gone holds nothing to fast-forward.
      return pathExists(path) ? path : null;
    }
  }
  return null;
}
