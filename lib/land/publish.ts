/**
 * The team's way of landing: `--push` sends the branch to a remote under its
 * own name with its upstream set, and `--pr` then opens a pull request with
 * `gh pr create`. The push is a compare-and-swap too: `--force-with-lease`
 * on what this repository last saw of the remote's branch (none: it must
 * not exist there), so a branch someone else pushed meanwhile is never
 * overwritten, and a branch rebased since its last push goes up.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { gitComplaint, runGit } from "../worktree/mod.ts";
import type { PullRequestReport, PushReport } from "../protocol/land.ts";

/** How long a push may take. */
const PUSH_TIMEOUT_MS = 600_000;

/** How long `gh pr create` may take. */
const GH_TIMEOUT_MS = 120_000;

const decoder = new TextDecoder();

/** Whether `remote` is a remote of the repository at `cwd`. */
export async function remoteExists(cwd: string, remote: string): Promise<boolean> {
  const result = await runGit(["remote"], { cwd, read: true });
  return decoder.decode(result.stdout).split("\n").includes(remote);
}

/**
 * Pushes `branch` (at `commit`) to `remote`, setting its upstream. Throws
 * exit `PUSH_FAILED` (reason `push_failed`, with git's words) when git does
 * not push; the remote is then as it was.
 */
export async function pushBranch(
  cwd: string,
  remote: string,
  branch: string,
  commit: string,
): Promise<PushReport> {
  const tracking = await runGit(
    ["rev-parse", "--verify", "--quiet", `refs/remotes/${remote}/${branch}`],
    { cwd, read: true },
  );
  const seen = tracking.code === 0 ? decoder.decode(tracking.stdout).trim() : "";
  const result = await runGit([
    "push",
    "--porcelain",
    "--set-upstream",
    `--force-with-lease=refs/heads/${branch}:${seen}`,
    remote,
    // The branch itself (at `commit` by now), so git sets it up to track what it pushed.
    `refs/heads/${branch}:refs/heads/${branch}`,
  ], { cwd, timeoutMs: PUSH_TIMEOUT_MS });
  if (result.code !== 0) {
    const out = decoder.decode(result.stdout);
    const rejected = /^!\s.*\[(?:rejected|remote rejected)\][^\n]*$/m.exec(out)?.[0];
    const why = rejected
      ? `the remote's ${branch} is not what this repository last saw of it (fetch it first): ${
        rejected.replace(/^!\s+/, "")
      }`
      : gitComplaint(result);
    throw new SkiffError(`git did not push ${branch} to ${remote}: ${why}`, {
      exit: "PUSH_FAILED",
      details: { reason: "push_failed", remote, git: why },
    });
  }
  return { remote, branch, commit };
}

/** Whether `gh` is on the PATH (the landing's). */
function ghPath(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    try {
      const info = Deno.statSync(`${dir}/gh`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return `${dir}/gh`;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** What `--pr` asks `gh pr create` for. */
export interface PullRequestAsk {
  /** The pushed branch. */
  head: string;
  /** The branch it goes into. */
  base: string;
  /** Its title. */
  title: string;
  /** Its body. */
  body: string;
  /** Open it as a draft. */
  draft: boolean;
  /** What was pushed, which stays whatever gh does. */
  push: PushReport;
}

/**
 * Opens a pull request with `gh pr create` in `cwd`. Throws exit
 * `PR_FAILED` (reason `pr_failed`, `gh`: `missing` or `failed`) when there
 * is no gh or gh fails; the push stays.
 */
export async function openPullRequest(
  cwd: string,
  ask: PullRequestAsk,
): Promise<PullRequestReport> {
  const gh = ghPath();
  const refused = (gh: "missing" | "failed", why: string) =>
    new SkiffError(`${ask.head} was pushed to ${ask.push.remote} (it stays), but ${why}`, {
      exit: "PR_FAILED",
      details: { reason: "pr_failed", gh, remote: ask.push.remote, push: ask.push },
    });
  if (gh === null) {
    throw refused(
      "missing",
      "no pull request was opened: gh is not on the PATH (install GitHub's CLI, or open it on the web)",
    );
  }
  const args = [
    "pr",
    "create",
    "--head",
    ask.head,
    "--base",
    ask.base,
    "--title",
    ask.title,
    "--body",
    ask.body,
    ...(ask.draft ? ["--draft"] : []),
  ];
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), GH_TIMEOUT_MS);
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(gh, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: abort.signal,
      env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" },
    }).output();
  } catch (error) {
    throw refused("failed", `gh pr create could not run: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  if (abort.signal.aborted) {
    throw refused("failed", `gh pr create took longer than ${GH_TIMEOUT_MS / 1000} s`);
  }
  const stderr = decoder.decode(output.stderr).trim();
  if (!output.success) {
    const line = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "").at(-1) ??
      `exit code ${output.code}`;
    throw refused("failed", `gh pr create failed: ${line}`);
  }
  const lines = decoder.decode(output.stdout).trim().split("\n").map((l) => l.trim());
  const url = lines.reverse().find((l) => /^https?:\/\//.test(l)) ?? lines[0] ?? "";
  return { url, title: ask.title, draft: ask.draft };
}
