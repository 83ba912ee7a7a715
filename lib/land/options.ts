/**
 * What a landing is asked to do: the options of `skiff land`, as
 * {@linkcode landWorktree} takes them.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { LandStrategy } from "../protocol/land.ts";

/** How long the check may run by default: 15 minutes. */
export const DEFAULT_CHECK_TIMEOUT_MS = 15 * 60_000;

/** The remote `--push` goes to by default. */
export const DEFAULT_REMOTE = "origin";

/** Options for {@linkcode landWorktree}: every one may be left out. */
export interface LandOptions {
  /**
   * What the ref names: a pane (`PANE`), a worktree (`NAME` or
   * `PROJECT/NAME`, as `--worktree`), or either, a pane first (the default).
   */
  as?: "pane" | "worktree" | "either";
  /** `rebase` (default), `merge` (a merge commit) or `squash` (one commit). */
  strategy?: LandStrategy;
  /** Commit the worktree's uncommitted work first (untracked files too, not ignored ones). */
  commit?: boolean;
  /** The message of that commit (default: from the ledger tasks sent on the branch). */
  message?: string;
  /** Run the project's check (default true; `--no-check` is false). */
  check?: boolean;
  /** How long the check may run, in ms (default {@linkcode DEFAULT_CHECK_TIMEOUT_MS}). */
  checkTimeoutMs?: number;
  /** Remove the worktree after the landing (ending its panes; the branch stays unless `deleteBranch`). */
  remove?: boolean;
  /** With `remove`: delete the branch too. */
  deleteBranch?: boolean;
  /** Say what would happen and change nothing. */
  dryRun?: boolean;
  /** Push the branch to this remote instead of landing it on the local base. */
  push?: string;
  /** Push (to `push`, default `origin`) and open a pull request with `gh pr create`. */
  pr?: boolean;
  /** With `pr`: open it as a draft. */
  draft?: boolean;
  /** On a conflict, send the worker a ledger task to rebase and resolve it. */
  toPane?: boolean;
  /** A connection to skiffd to use (by default one is made, starting skiffd when needed). */
  client?: DaemonClient;
  /** The ledger file (default: the Skiff agent's, as `skiff ledger` finds it). */
  ledgerPath?: string;
  /** Hears a line about each slow step (waiting for another landing, running the check). */
  onProgress?: (line: string) => void;
  /** Stops the landing (Ctrl-C): a check is ended, and everything is put back. */
  signal?: AbortSignal;
}
