/**
 * The `skiff/*` branches whose worktree is gone (`skiff worktree ls
 * --branches`), and deleting the merged ones (`skiff worktree prune
 * --branches`). A branch is merged when the base holds its tip, so deleting
 * it loses no commit; the delete is a compare-and-swap on the tip that was
 * read, so a branch that moved meanwhile stays.
 *
 * @module
 */

import type { Project } from "../config/config.ts";
import type { LeftBranch } from "../protocol/worktrees.ts";
import { runGit } from "./git.ts";
import { listWorktrees, repoPlace } from "./repo.ts";
import { aheadBehind } from "./status.ts";
import { isDirectory } from "../platform/files.ts";

/** The prefix of the branches Skiff makes for worktrees (`skiff/NAME`). */
const PREFIX = "refs/heads/skiff/";

const decoder = new TextDecoder();

/** The base branches are compared with: the main checkout's branch, else its HEAD commit. */
async function baseOf(repo: string): Promise<string | null> {
  const branch = await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], {
    cwd: repo,
    read: true,
  });
  if (branch.code === 0) return decoder.decode(branch.stdout).trim();
  const head = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {
    cwd: repo,
    read: true,
  });
  return head.code === 0 ? decoder.decode(head.stdout).trim() : null;
}

/** The left `skiff/*` branches of one repository. */
async function branchesOf(project: string, repo: string): Promise<LeftBranch[]> {
  const base = await baseOf(repo);
  if (base === null) return [];
  const refs = await runGit([
    "for-each-ref",
    "--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)%00%(subject)",
    PREFIX,
  ], { cwd: repo, read: true });
  if (refs.code !== 0) return [];
  // A branch held by a worktree whose folder is gone counts as left: git would prune that entry.
  const held = new Set(
    (await listWorktrees(repo)).filter((w) => w.branch !== null && w.prunable === null)
      .map((w) => w.branch),
  );
  const out: LeftBranch[] = [];
  for (const line of decoder.decode(refs.stdout).split("\n")) {
    if (line === "") continue;
    const [ref, commit, committed, subject] = line.split("\0");
    const branch = ref.slice("refs/heads/".length);
    if (held.has(branch) || branch === base) continue;
    const { ahead, behind } = await aheadBehind(repo, base, ref);
    out.push({
      project,
      repo,
      branch,
      commit,
      subject: subject ?? "",
      committed: committed ?? "",
      base,
      ahead,
      behind,
      merged: ahead === 0,
    });
  }
  return out;
}

/**
 * The `skiff/*` branches that no worktree holds, in the repositories of
 * `projects` (each repository once, named by its first project), in order.
 */
export async function leftBranches(projects: readonly Project[]): Promise<LeftBranch[]> {
  const seen = new Set<string>();
  const out: LeftBranch[] = [];
  for (const project of projects) {
    if (!isDirectory(project.root)) continue;
    let main: string;
    try {
      main = (await repoPlace(project.root, `Project '${project.name}'`)).main;
    } catch {
      continue; // Not a repository: it has no branches.
    }
    if (seen.has(main)) continue;
    seen.add(main);
    out.push(...await branchesOf(project.name, main));
  }
  return out;
}

/**
 * Deletes a merged left branch, if it still points where it was read and
 * the base still holds it; returns whether it went.
 */
export async function deleteMergedBranch(branch: LeftBranch): Promise<boolean> {
  const cwd = branch.repo;
  const onBase = await runGit(["merge-base", "--is-ancestor", branch.commit, branch.base], {
    cwd,
    read: true,
  });
  if (onBase.code !== 0) return false;
  // An entry of a worktree whose folder is gone would still name the branch.
  await runGit(["worktree", "prune"], { cwd });
  const deleted = await runGit(
    [
      "update-ref",
      "-m",
      "skiff worktree prune --branches",
      "-d",
      `refs/heads/${branch.branch}`,
      branch.commit,
    ],
    { cwd },
  );
  return deleted.code === 0;
}
