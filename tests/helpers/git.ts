/**
 * Real git repositories for tests: made in a test's temp folder, with an
 * author set on every commit (the test HOME has no git config), and a
 * snapshot of everything a refusal must leave as it was.
 *
 * @module
 */

import { dirname, join as joinPath } from "node:path";
import type { SkiffEnv } from "./skiff.ts";

const IDENTITY = ["-c", "user.name=Skiff Test", "-c", "user.email=test@skiff.invalid"];

/** Runs `git ARGS…` in `cwd` and returns stdout; throws with stderr when it fails. */
export function git(cwd: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: [...IDENTITY, ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" },
  }).outputSync();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text.trimEnd();
}

/**
 * Makes a repository at `dir` on branch `main` with one commit of the given
 * files (default: `README.md` and `app.txt`).
 */
export async function makeRepo(
  dir: string,
  files: Record<string, string> = { "README.md": "# demo\n", "app.txt": "one\ntwo\nthree\n" },
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(joinPath(dir, name)), { recursive: true });
    await Deno.writeTextFile(joinPath(dir, name), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
  return dir;
}

/** Commits every change in `dir` with `message`. */
export function commitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** What a refusal must leave as it was: branches, worktrees, HEAD and status. */
export function repoState(dir: string): string {
  return [
    git(dir, "for-each-ref", "--format=%(refname) %(objectname)"),
    git(dir, "worktree", "list", "--porcelain"),
    git(dir, "rev-parse", "HEAD"),
    git(dir, "status", "--porcelain=v2", "--branch", "--untracked-files=all"),
  ].join("\n--\n");
}

/** Adds project `name` at `root` to the test's config. */
export async function addProject(skiff: SkiffEnv, name: string, root: string): Promise<void> {
  await skiff.ok(["project", "add", name, root]);
}

/** The folder Skiff puts project `project`'s worktree `name` in by default. */
export function defaultWorktreePath(skiff: SkiffEnv, project: string, name: string): string {
  return joinPath(skiff.env.HOME, ".local", "share", "skiff", "worktrees", project, name);
}

/** Waits until the shell in `pane` shows its prompt (`$ ` or `# `). */
export async function shellReady(skiff: SkiffEnv, pane: string): Promise<void> {
  await skiff.waitForScreen(pane, /[$#] ?$/m, { timeout: 15_000 });
}

/** The name, branch and folder of a pane's worktree in `skiff ls --json`, or null. */
export function placeOf(
  worktree: { name: string; branch: string; path: string } | null,
): { name: string; branch: string; path: string } | null {
  return worktree ? { name: worktree.name, branch: worktree.branch, path: worktree.path } : null;
}
