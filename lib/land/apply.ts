/**
 * Carrying out a planned landing, all or nothing: the new commits are
 * written, the worktree is moved onto what lands, the check runs there,
 * then the base is moved (fast-forwarded in the checkout that has it, or its
 * ref swapped where none has it) or the branch is pushed. Every change is a
 * journaled step (`steps.ts`); when any step is refused, or the check fails,
 * or the landing is stopped, every step is undone, the last first.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { CheckReport, PushReport } from "../protocol/land.ts";
import { checkPassed, runCheck } from "./check.ts";
import type { CheckoutState } from "./checkout.ts";
import { writeCommits } from "./objects.ts";
import type { Plan } from "./plan.ts";
import { pushBranch } from "./publish.ts";
import { refusal } from "./refuse.ts";
import { plural } from "../words.ts";
import { Journal, landFolder, StepRefused } from "./steps.ts";

/** What carrying out a landing needs. */
export interface ApplyInput {
  /** The plan. */
  plan: Plan;
  /** The worktree as read when the landing started. */
  state: CheckoutState;
  /** `PROJECT/NAME`. */
  label: string;
  /** The worktree's branch. */
  branch: string;
  /** The base branch and its tip when read. */
  base: { name: string; tip: string };
  /** The checkout that has the base checked out (clean), its index file, or null. */
  holder: { top: string; index: string } | null;
  /** The check to run, and where, or null. */
  check: { command: string; cwd: string; timeoutMs: number } | null;
  /** Push to this remote instead of landing on the local base. */
  push: string | null;
  /** Stops the landing. */
  signal?: AbortSignal;
  /** Hears a line about each slow step. */
  onProgress?: (line: string) => void;
}

/** What a landing did. */
export interface Applied {
  /** The commit that landed (the base's new tip, or the pushed one). */
  landed: string;
  /** The ids of the commits written, in the plan's order. */
  written: string[];
  /** How the check went, or null without one. */
  check: CheckReport | null;
  /** What was pushed, or null. */
  push: PushReport | null;
}

function stopped(input: ApplyInput): void {
  if (input.signal?.aborted) {
    throw refusal("interrupted", "The landing was stopped: everything was put back", {
      worktree: input.label,
    });
  }
}

/** The refusal for a step that git refused because something moved meanwhile. */
function moved(input: ApplyInput, error: StepRefused): Error {
  const step = error.step;
  if (step.kind === "ref" && step.ref === `refs/heads/${input.base.name}`) {
    return refusal(
      "base_moved",
      `${input.base.name} moved while ${input.branch} was landed (to ${
        error.found?.slice(0, 12) ?? "nothing"
      }): nothing was landed and nothing lost; land again to rebase onto it`,
      { worktree: input.label, expected: step.old, found: error.found },
    );
  }
  if (step.kind === "tree" && input.holder && step.cwd === input.holder.top) {
    return refusal(
      "base_untracked",
      `The checkout of ${input.base.name} (${input.holder.top}) changed while it was landed: ${error.message}; nothing was changed`,
      { worktree: input.label, checkout: input.holder.top, files: [] },
    );
  }
  return refusal(
    "branch_moved",
    `${input.label} changed while it was landed (${error.message}): nothing was changed; land again`,
    {
      worktree: input.label,
      expected: step.kind === "ref" ? step.old : input.plan.head,
      found: error.found,
    },
  );
}

/** Carries out `input.plan`. Throws a refusal (everything undone) when it cannot. */
export async function applyLanding(input: ApplyInput): Promise<Applied> {
  const { plan, state } = input;
  const scratch = landFolder(state.commonDir);
  const written = await writeCommits(state.top, scratch, plan.toWrite);
  const landed = written.at(-1) ?? plan.tip;
  const journal = new Journal(state.commonDir, `${input.branch} of ${input.label}`);
  const branchRef = `refs/heads/${input.branch}`;
  const reason = `skiff land ${input.label}`;
  let check: CheckReport | null = null;
  try {
    stopped(input);
    // The worktree first: onto what lands, so the check runs on it.
    let at = plan.head;
    if (plan.work) {
      await journal.run({
        kind: "index",
        index: state.index,
        backup: journal.scratchFile("worktree.index"),
        replacement: plan.work.index,
      });
      at = plan.work.commit;
    }
    if (landed !== at) {
      await journal.run({
        kind: "tree",
        cwd: state.top,
        index: state.index,
        backup: journal.scratchFile("worktree-tree.index"),
        from: at,
        to: landed,
      });
    }
    if (landed !== plan.head) {
      await journal.run({
        kind: "ref",
        cwd: state.top,
        ref: branchRef,
        old: plan.head,
        new: landed,
        reason,
      });
    }
    stopped(input);
    if (input.check) {
      input.onProgress?.(`Running the check in ${input.check.cwd}: ${input.check.command}`);
      check = await runCheck(input.check.command, {
        cwd: input.check.cwd,
        timeoutMs: input.check.timeoutMs,
        signal: input.signal,
        env: {
          SKIFF_LAND_BRANCH: input.branch,
          SKIFF_LAND_BASE: input.base.name,
          SKIFF_LAND_COMMIT: landed,
        },
      });
      stopped(input);
      if (!checkPassed(check)) {
        const how = check.timed_out
          ? `ran longer than ${Math.round(input.check.timeoutMs / 1000)} s and was ended`
          : `exited ${check.exit_code}`;
        const last = check.output_tail.at(-1);
        throw refusal(
          "check_failed",
          `The check (${input.check.command}) ${how}${last ? `: ${last}` : ""}; nothing was landed`,
          { worktree: input.label, check },
        );
      }
    }
    let push: PushReport | null = null;
    if (input.push !== null) {
      input.onProgress?.(`Pushing ${input.branch} to ${input.push}`);
      push = await pushBranch(state.top, input.push, input.branch, landed);
    } else {
      await journal.run({
        kind: "ref",
        cwd: state.top,
        ref: `refs/heads/${input.base.name}`,
        old: input.base.tip,
        new: landed,
        reason: `${reason}: ${plural(plan.commits.length, "commit")}`,
      });
      if (input.holder) {
        // Fast-forwarded in the checkout that has it: its index and files follow its branch.
        await journal.run({
          kind: "tree",
          cwd: input.holder.top,
          index: input.holder.index,
          backup: journal.scratchFile("base.index"),
          from: input.base.tip,
          to: landed,
        });
      }
    }
    journal.landed();
    journal.finish();
    return { landed, written, check, push };
  } catch (error) {
    const problems = await journal.undo();
    const cause = error instanceof StepRefused ? moved(input, error) : error;
    if (problems.length > 0 && cause instanceof Error) {
      cause.message += `; and not everything could be put back: ${problems.join("; ")}`;
    }
    throw cause;
  } finally {
    if (plan.work) {
      try {
        Deno.removeSync(plan.work.index);
      } catch {
        // Gone with the journal.
      }
    }
  }
}

/** The folder a check runs in: the project's root in the worktree. */
export function checkFolder(path: string, subdir: string): string {
  return subdir ? join(path, subdir) : path;
}
