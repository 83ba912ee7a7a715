/**
 * The end of a landing: the result `skiff land --json` prints, the pull
 * request after a push, `--remove`, and the one line a person reads.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { loadConfig } from "../config/config.ts";
import type { LandedCommit, LandResult } from "../protocol/land.ts";
import type { WorktreeTarget } from "../protocol/worktrees.ts";
import { runGit } from "../worktree/mod.ts";
import type { CheckoutState } from "./checkout.ts";
import type { LandOptions } from "./options.ts";
import type { Plan } from "./plan.ts";
import { openPullRequest } from "./publish.ts";
import { plural } from "../words.ts";
import { pullRequestText } from "./words.ts";

/** The result of a landing of `target`, its fields in the order the contract gives them. */
export function result(
  target: WorktreeTarget,
  fields: Omit<LandResult, "pane" | "worktree" | "warnings"> & { warnings?: string[] },
  branch: string,
): LandResult {
  const tree = target.worktree;
  return {
    outcome: fields.outcome,
    dry_run: fields.dry_run,
    pane: target.pane ? { id: target.pane.id, name: target.pane.name } : null,
    worktree: {
      id: tree.id,
      project: tree.project,
      name: tree.name,
      path: tree.path,
      branch,
    },
    strategy: fields.strategy,
    base: fields.base,
    branch: fields.branch,
    committed: fields.committed,
    commits: fields.commits,
    range: fields.range,
    diff: fields.diff,
    check: fields.check,
    push: fields.push,
    pr: fields.pr,
    tasks: fields.tasks,
    removed: fields.removed,
    warnings: fields.warnings ?? [],
  };
}

/** The commits that landed, with their new ids filled in. */
export function landedCommits(plan: Plan, written: string[]): LandedCommit[] {
  let next = 0;
  return plan.commits.map((c) => c.commit === null ? { ...c, commit: written[next++] } : c);
}

/** The check of the worktree's project, as projects.toml says now, or null. */
export function projectCheck(project: string): string | null {
  return loadConfig().projects.find((p) => p.name === project)?.check ?? null;
}

/** `--push` / `--pr` after the push: the pull request, and `--remove`. */
export async function published(
  target: WorktreeTarget,
  client: DaemonClient,
  options: LandOptions,
  done: Omit<LandResult, "outcome" | "pane" | "worktree" | "pr" | "removed"> & {
    subjects: string[];
    baseTip: string;
    landed: string;
    words: { name: string; branch: string; tasks: LandResult["tasks"] };
    state: CheckoutState;
    branchName: string;
  },
): Promise<LandResult> {
  const label = `${target.worktree.project}/${target.worktree.name}`;
  let pr = null;
  if (options.pr) {
    const stat = await runGit(["diff", "--stat", done.baseTip, done.landed], {
      cwd: done.state.top,
      read: true,
    });
    const text = pullRequestText(done.words, done.subjects, new TextDecoder().decode(stat.stdout));
    options.onProgress?.(`Opening a pull request of ${done.branchName} into ${done.base.name}`);
    pr = await openPullRequest(done.state.top, {
      head: done.branchName,
      // A base named after the remote's branch (`origin/main`) is that branch there.
      base: done.base.name.startsWith(`${done.push!.remote}/`)
        ? done.base.name.slice(done.push!.remote.length + 1)
        : done.base.name,
      title: text.title,
      body: text.body,
      draft: options.draft ?? false,
      push: done.push!,
    });
  }
  const removed = options.remove
    ? await removeAfter(client, label, options.deleteBranch ?? false, done.warnings)
    : null;
  return result(target, {
    outcome: pr ? "pr" : "pushed",
    dry_run: false,
    strategy: done.strategy,
    base: done.base,
    branch: done.branch,
    committed: done.committed,
    commits: done.commits,
    range: done.range,
    diff: done.diff,
    check: done.check,
    push: done.push,
    pr,
    tasks: [],
    removed,
    warnings: done.warnings,
  }, done.branchName);
}

/** `--remove` after a landing: the worktree goes (its panes ended first); a refusal is a warning. */
export async function removeAfter(
  client: DaemonClient,
  label: string,
  deleteBranch: boolean,
  warnings: string[],
): Promise<LandResult["removed"]> {
  try {
    const removed = await client.call("worktree.remove", {
      worktree: label,
      delete_branch: deleteBranch,
      end_panes: true,
    });
    return {
      removed: true,
      branch_deleted: removed.branch_deleted,
      panes_killed: removed.panes_killed,
    };
  } catch (error) {
    warnings.push(`The worktree was not removed: ${(error as Error).message}`);
    return { removed: false, branch_deleted: false, panes_killed: [] };
  }
}

/** How a landing reads in one line: for the CLI and the dashboard's status line. */
export function landedLine(landed: LandResult): string {
  const count = plural(landed.commits.length, "commit");
  const branch = landed.worktree.branch;
  switch (landed.outcome) {
    case "up_to_date":
      return `Nothing to land: ${landed.base.name} has everything on ${branch}`;
    case "dry_run":
      // The base's tip it would rebase onto, so a landing after a look can be told apart.
      return `Would land ${count} of ${branch} onto ${landed.base.name} at ${
        landed.base.before.slice(0, 12)
      } (${landed.strategy})`;
    case "pushed":
      return `Pushed ${branch} (${count}) to ${landed.push?.remote}`;
    case "pr":
      return `Opened ${landed.pr?.url} for ${branch} (${count})`;
    default:
      return `Landed ${count} of ${branch} on ${landed.base.name} (${landed.strategy}): ${
        landed.range?.split("..").map((c) => c.slice(0, 12)).join("..")
      }`;
  }
}
