/**
 * Landing a worktree's work on its base (`skiff land`): the result that
 * `skiff land --json` prints, the same object `landWorktree` in `lib/land`
 * returns to the MCP server and the app, and the JSON shape of every refusal.
 *
 * A refusal is a `SkiffError`; with `--json` it prints as
 * `{"schema_version": 1, "error": {"code", "exit", "message", "reason", …}}`
 * on stderr, where `reason` is a {@linkcode LandRefusalReason} and the other
 * fields are those of {@linkcode LandRefusalDetails} that the reason names.
 * Every refusal leaves every ref, the index and the files as they were.
 *
 * @module
 */

import type { DiffStat } from "./worktrees.ts";

/** How the branch's commits go onto the base. */
export type LandStrategy = "rebase" | "merge" | "squash";

/** The strategies, the default first. */
export const LAND_STRATEGIES: readonly LandStrategy[] = ["rebase", "merge", "squash"];

/**
 * What a landing did:
 * - `landed`: the base holds the work (fast-forwarded in its checkout, or its ref moved);
 * - `pushed`: `--push`: the branch went to the remote instead;
 * - `pr`: `--pr`: pushed, and a pull request was opened;
 * - `up_to_date`: nothing to land: the branch has no commits the base lacks, and no changes;
 * - `dry_run`: `--dry-run`: what would happen; nothing was changed.
 */
export type LandOutcome = "landed" | "pushed" | "pr" | "up_to_date" | "dry_run";

/** Where the base branch was when it was landed. */
export type BaseWhere =
  /** Checked out in a clean checkout (the project's main one, or another worktree): fast-forwarded there. */
  | "checkout"
  /** Checked out nowhere: its ref was moved with a compare-and-swap. */
  | "ref"
  /** `--push` / `--pr`: the local base was not touched. */
  | "remote";

/** One commit that lands, oldest first. */
export interface LandedCommit {
  /** Its id on the base; null in a dry run for a commit the landing would make. */
  commit: string | null;
  /** The worktree's commit it was made from (rebase), or null (a merge or squash commit). */
  original: string | null;
  /** Its subject line. */
  subject: string;
}

/** The check (`check = "COMMAND"` of the project in projects.toml), and how it went. */
export interface CheckReport {
  /** The command, as projects.toml writes it. */
  command: string;
  /** The folder it ran in: the project's root in the worktree. */
  cwd: string;
  /** Whether it ran (false: `--no-check`, or a dry run). */
  ran: boolean;
  /** Its exit code; null when it did not run, or was ended. */
  exit_code: number | null;
  /** Whether it ran past `--check-timeout` and was ended (its whole process group). */
  timed_out: boolean;
  /** How long it ran, in ms; null when it did not run. */
  duration_ms: number | null;
  /** The last lines of its output (stdout and stderr as they came), at most 20. */
  output_tail: string[];
}

/** The ledger task a landing marked `landed`, or would mark. */
export interface LandedTask {
  /** Its uid. */
  uid: string;
  /** The first line of its text. */
  task: string;
}

/** What `--push` did. */
export interface PushReport {
  /** The remote (default `origin`). */
  remote: string;
  /** The branch pushed, under its own name, with its upstream set. */
  branch: string;
  /** The commit pushed. */
  commit: string;
}

/** What `--pr` opened. */
export interface PullRequestReport {
  /** The pull request's address, as `gh pr create` printed it. */
  url: string;
  /** Its title. */
  title: string;
  /** Whether it is a draft (`--draft`). */
  draft: boolean;
}

/** What `--remove` did after the landing. */
export interface LandRemoval {
  /** Whether the worktree was removed. */
  removed: boolean;
  /** Whether its branch was deleted (`--delete-branch`). */
  branch_deleted: boolean;
  /** The panes that ran in it and were ended first (ids). */
  panes_killed: string[];
}

/** What `skiff land --json` prints (after `schema_version`), and what `landWorktree` returns. */
export interface LandResult {
  /** What happened. */
  outcome: LandOutcome;
  /** Whether this was `--dry-run` (then nothing was changed). */
  dry_run: boolean;
  /** The pane that holds the worktree, or null when no pane does. */
  pane: { id: string; name: string } | null;
  /** The worktree. */
  worktree: { id: string; project: string; name: string; path: string; branch: string };
  /** The strategy. */
  strategy: LandStrategy;
  /** The base branch: its tip before and after (after: null in a dry run or with --push). */
  base: {
    name: string;
    before: string;
    after: string | null;
    where: BaseWhere;
    /** The checkout that has it checked out (fast-forwarded there), or null. */
    checkout: string | null;
  };
  /** The worktree's branch tip before and after (after: null in a dry run). */
  branch: { before: string; after: string | null };
  /** `--commit`: the commit made of the uncommitted work, or null. */
  committed: { commit: string; message: string; files: string[] } | null;
  /** The commits that land on the base (or would), oldest first. */
  commits: LandedCommit[];
  /** `BEFORE..AFTER` on the base (`git log RANGE` lists what landed), or null. */
  range: string | null;
  /** The changes that land, against the base. */
  diff: DiffStat;
  /** The check, or null when the project sets none. */
  check: CheckReport | null;
  /** `--push` / `--pr`: what was pushed, or null. */
  push: PushReport | null;
  /** `--pr`: the pull request, or null. */
  pr: PullRequestReport | null;
  /** The ledger tasks sent on the branch that were marked `landed` (or would be). */
  tasks: LandedTask[];
  /** `--remove`: what was removed, or null. */
  removed: LandRemoval | null;
  /**
   * What went wrong after the work had landed (the ledger could not be
   * written, skiffd could not note it): one line each. The landing stands.
   */
  warnings: string[];
}

/** Why a landing was refused: the `reason` of its JSON error. */
export type LandRefusalReason =
  /** Exit `CONFLICT`: the worktree holds uncommitted work (`files`); `--commit` commits it first. */
  | "uncommitted"
  /** Exit `MERGE_CONFLICT`: the branch does not apply on the base (`conflicts`, `commit`, `to_pane`). */
  | "merge_conflict"
  /** Exit `CHECK_FAILED`: the check exited non-zero or ran too long (`check`). */
  | "check_failed"
  /** Exit `CONFLICT`: the checkout that has the base checked out holds changes (`checkout`, `files`). */
  | "base_dirty"
  /** Exit `CONFLICT`: untracked files in the base's checkout would be overwritten (`checkout`, `files`). */
  | "base_untracked"
  /** Exit `CONFLICT`: the base moved while it was landed (`expected`, `found`); nothing was lost. */
  | "base_moved"
  /** Exit `CONFLICT`: the worktree's branch or files changed during the landing (`expected`, `found`). */
  | "branch_moved"
  /** Exit `CONFLICT`: the base is a commit, not a branch, so there is nothing to land on. */
  | "base_not_branch"
  /** Exit `NOT_FOUND`: the base branch does not exist any more. */
  | "base_missing"
  /** Exit `CONFLICT`: the worktree's HEAD is detached. */
  | "detached"
  /** Exit `CONFLICT`: a rebase, merge, cherry-pick or revert is under way there (`checkout`, `operation`). */
  | "in_progress"
  /** Exit `CONFLICT`: the pane in the worktree is in a turn (`pane`, `state`): wait for it to end. */
  | "pane_busy"
  /** Exit `NOT_FOUND`: the worktree's folder or repository is gone. */
  | "worktree_missing"
  /** Exit `PUSH_FAILED`: git could not push (`remote`, `git`); nothing was changed. */
  | "push_failed"
  /** Exit `PR_FAILED`: pushed, but no pull request (`gh`: `missing` or `failed`; `push`): the push stays. */
  | "pr_failed"
  /** Exit `ERROR`: the landing was stopped (Ctrl-C, a signal) and everything was put back. */
  | "interrupted";

/** The fields a landing's JSON error may carry, besides `code`, `exit` and `message`. */
export interface LandRefusalDetails {
  /** Why. */
  reason: LandRefusalReason;
  /** The worktree, `PROJECT/NAME`. */
  worktree?: string;
  /** `uncommitted`, `base_dirty`, `base_untracked`: the files. */
  files?: string[];
  /** `merge_conflict`: the conflicting files. */
  conflicts?: string[];
  /** `merge_conflict`: the worktree's commit that did not apply (rebase), or null. */
  commit?: string | null;
  /** `merge_conflict` with `--to-pane`: the task sent to the worker, and how its send went. */
  to_pane?: {
    /** The task's uid, or null when no task could be made (no pane holds the worktree). */
    uid: string | null;
    /** The task's state after the send (`sent`, `pending`, `blocked`, …), or null. */
    state: string | null;
    /** The send's exit code (0: sent). */
    exit: number;
    /** What went wrong, or null. */
    error: string | null;
  } | null;
  /** `check_failed`: the check. */
  check?: CheckReport;
  /** `base_dirty`, `base_untracked`, `in_progress`: the checkout. */
  checkout?: string;
  /** `in_progress`: which (`rebase`, `merge`, `cherry-pick`, `revert`, `bisect`). */
  operation?: string;
  /** `base_moved`, `branch_moved`: the commit expected and the one found. */
  expected?: string;
  /** `base_moved`, `branch_moved`. */
  found?: string | null;
  /** `pane_busy`: the pane and its state. */
  pane?: string;
  /** `pane_busy`. */
  state?: string;
  /** `push_failed`, `pr_failed`: the remote. */
  remote?: string;
  /** `push_failed`: git's complaint, one line. */
  git?: string;
  /** `pr_failed`: `missing` (no gh on PATH) or `failed` (gh exited non-zero; its words in `message`). */
  gh?: "missing" | "failed";
  /** `pr_failed`: what was pushed, which stays. */
  push?: PushReport;
}
