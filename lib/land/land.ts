/**
 * The whole landing, as `skiff land`, the MCP server's `land_pane` and the
 * app's Land button do it: find the worktree through skiffd, take the
 * repository's landing lock, check everything, plan with plumbing, carry it
 * out all or nothing, then note it (the ledger's tasks, skiffd's record)
 * and remove the worktree when asked.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { loadConfig } from "../config/config.ts";
import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import type { WorktreeTasks } from "../ledger/mod.ts";
import {
  LAND_STRATEGIES,
  type LandedCommit,
  type LandResult,
  type LandStrategy,
} from "../protocol/land.ts";
import type { WorktreeTarget } from "../protocol/worktrees.ts";
import { runGit } from "../worktree/mod.ts";
import { applyLanding, checkFolder } from "./apply.ts";
import { checkoutOf, type CheckoutState, readCheckout } from "./checkout.ts";
import {
  conflictTask,
  landingLedgerPath,
  markLanded,
  sendConflictTask,
  tasksOnBranch,
} from "./ledger_tasks.ts";
import { takeLandLock } from "./lock.ts";
import { diffStat } from "./objects.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_REMOTE, type LandOptions } from "./options.ts";
import { type Plan, planLanding } from "./plan.ts";
import { openPullRequest, remoteExists } from "./publish.ts";
import { plural, refusal, someFiles } from "./refuse.ts";
import { landFolder, recoverLanding, refValue } from "./steps.ts";
import { pullRequestText } from "./words.ts";
import { ensureDir } from "../platform/files.ts";

/** The pane states in which an agent is in a turn: its files may change under a landing. */
const BUSY = new Set(["working", "waiting"]);

function usage(message: string): SkiffError {
  return new SkiffError(message, { exit: "USAGE" });
}

/** Checks the options against each other, before anything is read. */
function checkOptions(options: LandOptions): void {
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
async function baseHolder(
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

/** Reads the worktree and refuses what cannot be landed as it is. */
function checkWorktree(state: CheckoutState, label: string, commit: boolean): void {
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

function result(
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
function landedCommits(plan: Plan, written: string[]): LandedCommit[] {
  let next = 0;
  return plan.commits.map((c) => c.commit === null ? { ...c, commit: written[next++] } : c);
}

/** The check of the worktree's project, as projects.toml says now, or null. */
function projectCheck(project: string): string | null {
  return loadConfig().projects.find((p) => p.name === project)?.check ?? null;
}

/**
 * Lands the worktree that `target` names. See {@linkcode landWorktree}.
 */
async function landTarget(
  target: WorktreeTarget,
  client: DaemonClient,
  options: LandOptions,
): Promise<LandResult> {
  const tree = target.worktree;
  const label = `${tree.project}/${tree.name}`;
  const strategy: LandStrategy = options.strategy ?? "rebase";
  const dryRun = options.dryRun ?? false;
  const remote = options.push ?? (options.pr ? DEFAULT_REMOTE : null);
  if (tree.state === "missing") {
    throw refusal("worktree_missing", `Worktree '${label}' is missing: ${tree.missing}`, {
      worktree: label,
    });
  }
  if (target.pane && target.pane.status === "running" && BUSY.has(target.pane.state)) {
    throw refusal(
      "pane_busy",
      `Pane ${target.pane.name} is ${target.pane.state} in ${label}: wait until its turn ends ('skiff wait ${target.pane.name} --until idle'), then land`,
      { worktree: label, pane: target.pane.id, state: target.pane.state },
    );
  }
  if (tree.base === tree.base_commit) {
    throw refusal(
      "base_not_branch",
      `${label} was made from commit ${
        tree.base.slice(0, 12)
      }, not a branch, so it has no base to land on: merge its branch ${tree.made_branch} by hand`,
      { worktree: label },
    );
  }
  const check = options.check === false ? null : projectCheck(tree.project);
  const ledgerPath = landingLedgerPath(options.ledgerPath);
  const warnings: string[] = [];
  let state = await readCheckout(tree.path);
  const lock = dryRun ? null : await takeLandLock(state.commonDir, {
    signal: options.signal,
    waiting: (pid) =>
      options.onProgress?.(
        `Waiting for another landing in ${tree.repo}${pid ? ` (pid ${pid})` : ""} to end`,
      ),
  });
  try {
    if (lock) {
      const recovered = await recoverLanding(state.commonDir);
      if (recovered) {
        warnings.push(`Before this landing, Skiff ${recovered}`);
        options.onProgress?.(`Skiff ${recovered}`);
      }
      // Read again under the lock: another landing may have moved things meanwhile.
      state = await readCheckout(tree.path);
    }
    checkWorktree(state, label, options.commit ?? false);
    const branch = state.branch!;
    if (remote !== null && !await remoteExists(state.top, remote)) {
      throw usage(`${label}'s repository has no remote '${remote}': see 'git remote -v'`);
    }
    const baseTip = await refValue(state.top, `refs/heads/${tree.base}`);
    if (baseTip === null) {
      throw refusal(
        "base_missing",
        `The base branch '${tree.base}' of ${label} does not exist any more`,
        { worktree: label },
      );
    }
    const match: WorktreeTasks = {
      host: null,
      worktree: tree.id,
      branch,
      panes: [...new Set([target.pane?.id, tree.pane?.id].filter((p): p is string => !!p))],
    };
    const tasks = tasksOnBranch(ledgerPath, match);
    const words = { name: tree.name, branch, tasks };
    ensureDir(landFolder(state.commonDir));
    let plan: Plan;
    try {
      plan = await planLanding({
        state,
        label,
        base: { name: tree.base, tip: baseTip },
        strategy,
        words,
        commit: options.commit ?? false,
        commitMessage: options.message,
        scratch: landFolder(state.commonDir),
      });
    } catch (error) {
      if (
        error instanceof SkiffError && error.details.reason === "merge_conflict" &&
        options.toPane && !dryRun
      ) {
        const files = error.details.conflicts as string[];
        const sent = await sendConflictTask(
          ledgerPath,
          target.pane,
          conflictTask(branch, tree.base, files),
          client,
        );
        error.details.to_pane = sent;
        error.message += sent.uid
          ? `; task ${sent.uid} for ${target.pane?.name} is ${sent.state}`
          : `; no task was sent: ${sent.error}`;
      }
      throw error;
    }
    const committed = plan.work
      ? { commit: plan.work.commit, message: plan.work.message, files: plan.work.files }
      : null;
    const diff = await diffStat(state.top, baseTip, plan.tree);
    const checkPlace = check === null ? null : {
      command: check,
      cwd: checkFolder(tree.path, tree.subdir),
      timeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    };
    const common = {
      strategy,
      committed,
      diff: { files: diff.files, added: diff.added, removed: diff.removed },
      push: null,
      pr: null,
      removed: null,
      warnings,
    };
    if (plan.upToDate) {
      if (plan.work) Deno.removeSync(plan.work.index);
      return result(target, {
        ...common,
        outcome: "up_to_date",
        dry_run: dryRun,
        committed: null,
        base: { name: tree.base, before: baseTip, after: baseTip, where: "ref", checkout: null },
        branch: { before: plan.head, after: plan.head },
        commits: [],
        range: null,
        check: null,
        tasks: [],
      }, branch);
    }
    const holder = remote !== null
      ? null
      : await baseHolder(state, tree.base, label, plan.tree, baseTip);
    const where = remote !== null ? "remote" : holder ? "checkout" : "ref";
    if (dryRun) {
      if (plan.work) Deno.removeSync(plan.work.index);
      return result(target, {
        ...common,
        outcome: "dry_run",
        dry_run: true,
        base: {
          name: tree.base,
          before: baseTip,
          after: null,
          where,
          checkout: holder?.top ?? null,
        },
        branch: { before: plan.head, after: null },
        commits: plan.commits,
        range: null,
        check: checkPlace
          ? {
            command: checkPlace.command,
            cwd: checkPlace.cwd,
            ran: false,
            exit_code: null,
            timed_out: false,
            duration_ms: null,
            output_tail: [],
          }
          : null,
        tasks,
      }, branch);
    }
    const applied = await applyLanding({
      plan,
      state,
      label,
      branch,
      base: { name: tree.base, tip: baseTip },
      holder,
      check: checkPlace,
      push: remote,
      signal: options.signal,
      onProgress: options.onProgress,
    });
    lock?.release();
    const commits = landedCommits(plan, applied.written);
    const base = {
      name: tree.base,
      before: baseTip,
      after: remote === null ? applied.landed : null,
      where,
      checkout: holder?.top ?? null,
    } as const;
    const done = {
      ...common,
      dry_run: false,
      base,
      branch: { before: plan.head, after: applied.landed },
      commits,
      range: remote === null ? `${baseTip}..${applied.landed}` : null,
      check: applied.check,
      push: applied.push,
    };
    if (remote !== null) {
      return await published(target, client, options, {
        ...done,
        branch: done.branch,
        tasks,
        subjects: plan.subjects,
        baseTip,
        landed: applied.landed,
        words,
        state,
        branchName: branch,
      });
    }
    let marked = tasks;
    try {
      marked = markLanded(ledgerPath, match, {
        into: tree.base,
        from: baseTip,
        to: applied.landed,
      });
    } catch (error) {
      warnings.push(`The ledger's tasks could not be marked landed: ${(error as Error).message}`);
    }
    try {
      await client.call("worktree.landed", {
        worktree: tree.id,
        landed: {
          at: new Date().toISOString(),
          into: tree.base,
          from: baseTip,
          to: applied.landed,
          strategy,
          commits: commits.length,
        },
      });
    } catch (error) {
      warnings.push(`skiffd could not note the landing: ${(error as Error).message}`);
    }
    const removed = options.remove
      ? await removeAfter(client, label, options.deleteBranch ?? false, warnings)
      : null;
    return result(target, { ...done, outcome: "landed", tasks: marked, removed }, branch);
  } finally {
    lock?.release();
  }
}

/** `--push` / `--pr` after the push: the pull request, and `--remove`. */
async function published(
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
      base: done.base.name,
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
async function removeAfter(
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

/**
 * Lands the work of the worktree that `ref` names (a pane, or with
 * `options.as` a worktree) on its base, or refuses and changes nothing:
 * every ref, the index and the files stay as they were. Returns what
 * `skiff land --json` prints. A refusal is a `SkiffError` whose details are
 * the `LandRefusalDetails` of its reason.
 */
export async function landWorktree(ref: string, options: LandOptions = {}): Promise<LandResult> {
  checkOptions(options);
  if (ref.trim() === "") throw usage("PANE is empty: name a pane or a worktree");
  const own = options.client ? null : await connectDaemon();
  const client = options.client ?? own!;
  try {
    const target = await client.call("worktree.get", { ref, as: options.as ?? "either" });
    return await landTarget(target, client, options);
  } finally {
    own?.close();
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
      return `Would land ${count} of ${branch} on ${landed.base.name} (${landed.strategy})`;
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
