/**
 * The checks a landing makes before it plans anything: the options against
 * each other, the worktree (no operation under way, on a branch, its work
 * committed or `--commit`), and the checkout that has the base (clean, no
 * untracked file in the landing's way). Each refusal leaves all as it was.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { LAND_STRATEGIES } from "../protocol/land.ts";
import { runGit } from "../worktree/mod.ts";
import { checkoutOf, type CheckoutState, readCheckout } from "./checkout.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, type LandOptions } from "./options.ts";
import { refusal, someFiles } from "./refuse.ts";

/** A usage error: one line, exit 2. */
export function usage(message: string): SkiffError {
  return new SkiffError(message, { exit: "USAGE" });
}

/** Checks the options against each other, before anything is read. */
export function checkOptions(options: LandOptions): void {
  const strategy = options.strategy ?? "rebase";
  if (!LAND_STRATEGIES.includes(strategy)) {
    throw usage(`Bad strategy '${strategy}': use ${LAND_STRATEGIES.join(", ")}`);
  }
  if (options.message !== undefined && !options.commit) {
    throw usage("A message (-m) is for the commit --commit makes: add --commit");
  }
  if (options.message !== undefined && options.message.trim() === "") {
    throw usage("The commit message (-m) is empty");
  }
  if (options.deleteBranch && !options.remove) {
    throw usage("--delete-branch goes with --remove");
  }
  if (options.draft && !options.pr) throw usage("--draft goes with --pr");
  if (options.push !== undefined && options.push.trim() === "") {
    throw usage("The remote to push to is empty");
  }
  const timeout = options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw usage("The check's time limit must be more than 0 seconds");
  }
}

/** The checkout that has the base checked out, checked clean, or null where none has it. */
export async function baseHolder(
  state: CheckoutState,
  base: string,
  label: string,
  tree: string,
  baseTip: string,
): Promise<{ top: string; index: string } | null> {
  const top = await checkoutOf(state.top, base);
  if (top === null) return null;
  const holder = await readCheckout(top);
  if (holder.operation) {
    throw refusal(
      "in_progress",
      `A ${holder.operation} is under way in ${top}, which has ${base} checked out: finish or abort it first; nothing was changed`,
      { worktree: label, checkout: top, operation: holder.operation },
    );
  }
  if (holder.changed.length > 0) {
    throw refusal(
      "base_dirty",
      `${top} has ${base} checked out and holds changes (${
        someFiles(holder.changed)
      }): commit or stash them first; nothing was changed`,
      { worktree: label, checkout: top, files: holder.changed },
    );
  }
  // Files the landing adds that lie there untracked would be overwritten: git says which.
  const trial = await runGit(["read-tree", "-m", "-u", "-n", baseTip, tree], { cwd: top });
  if (trial.code !== 0) {
    const files = [...trial.stderr.matchAll(/^\s+(.+)$/gm)].map((m) => m[1].trim())
      .filter((f) => !/^Please|^Aborting/.test(f));
    const named = [...trial.stderr.matchAll(/'([^']+)' would be overwritten/g)].map((m) => m[1]);
    const all = [...new Set([...named, ...files])];
    throw refusal(
      "base_untracked",
      `Untracked files in ${top} (which has ${base} checked out) would be overwritten by the landing${
        all.length ? `: ${someFiles(all)}` : ""
      }; move them first; nothing was changed`,
      { worktree: label, checkout: top, files: all },
    );
  }
  return { top, index: holder.index };
}

/** Refuses a worktree that cannot be landed as it is. */
export function checkWorktree(state: CheckoutState, label: string, commit: boolean): void {
  if (state.operation) {
    throw refusal(
      "in_progress",
      `A ${state.operation} is under way in ${label} (${state.top}): finish or abort it first; nothing was changed`,
      { worktree: label, checkout: state.top, operation: state.operation },
    );
  }
  if (state.branch === null) {
    throw refusal(
      "detached",
      `${label} is not on a branch (its HEAD is detached): check out its branch first`,
      { worktree: label },
    );
  }
  if (state.unmerged.length > 0) {
    throw refusal(
      "uncommitted",
      `${label} has unresolved conflicts (${
        someFiles(state.unmerged)
      }): resolve and commit them first`,
      { worktree: label, files: state.unmerged },
    );
  }
  const files = [...state.changed, ...state.untracked];
  if (files.length > 0 && !commit) {
    throw refusal(
      "uncommitted",
      `${label} holds uncommitted work (${
        someFiles(files)
      }): commit it, or land with --commit to commit it first`,
      { worktree: label, files },
    );
  }
}
