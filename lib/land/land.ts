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
import { ensureDir } from "../platform/files.ts";
import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import { parsePaneRef } from "../hosts/resolve.ts";
import type { WorktreeTasks } from "../ledger/mod.ts";
import type { LandResult, LandStrategy } from "../protocol/land.ts";
import type { WorktreeTarget } from "../protocol/worktrees.ts";
import { applyLanding, checkFolder } from "./apply.ts";
import { readCheckout } from "./checkout.ts";
import { landedCommits, projectCheck, published, removeAfter, result } from "./finish.ts";
import { baseHolder, checkOptions, checkWorktree, usage } from "./guards.ts";
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
import { type Plan, planLanding, scratchIndex } from "./plan.ts";
import { remoteExists } from "./publish.ts";
import { refusal } from "./refuse.ts";
import { landOnHost } from "./remote.ts";
import { landFolder, recoverLanding, refValue } from "./steps.ts";

export { landedLine } from "./finish.ts";

/**
 * The base's tip now. A local branch is landed on; a base that names another
 * ref (a remote's branch, `origin/main`) can only be rebased onto and pushed
 * past (`--push`), so without a remote it is refused.
 */
async function baseTipOf(
  cwd: string,
  base: string,
  label: string,
  remote: string | null,
): Promise<string> {
  const local = await refValue(cwd, `refs/heads/${base}`);
  if (local !== null) return local;
  const other = await refValue(cwd, `${base}^{commit}`);
  if (other !== null && remote !== null) return other;
  if (other !== null) {
    throw refusal(
      "base_not_branch",
      `The base '${base}' of ${label} is not a local branch, so there is nothing here to land on: push instead (--push or --pr)`,
      { worktree: label },
    );
  }
  throw refusal("base_missing", `The base branch '${base}' of ${label} does not exist any more`, {
    worktree: label,
  });
}

/** The pane states in which an agent is in a turn: its files may change under a landing. */
const BUSY = new Set(["working", "waiting"]);

/** Refuses a landing while the agent in the worktree's pane is in a turn. */
function busyCheck(pane: WorktreeTarget["pane"], label: string): void {
  if (!pane || pane.status !== "running" || !BUSY.has(pane.state)) return;
  throw refusal(
    "pane_busy",
    `Pane ${pane.name} is ${pane.state} in ${label}: wait until its turn ends ('skiff wait ${pane.name} --until idle'), then land`,
    { worktree: label, pane: pane.id, state: pane.state },
  );
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
  busyCheck(target.pane, label);
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
      // Read again under the lock: another landing may have moved things meanwhile, and the
      // pane's agent may have started a turn while this one waited.
      state = await readCheckout(tree.path);
      if (target.pane) {
        const now = await client.call("pane.get", { pane: target.pane.id }).catch(() => null);
        if (now) busyCheck({ ...target.pane, status: now.status, state: now.state }, label);
      }
    }
    checkWorktree(state, label, options.commit ?? false);
    const branch = state.branch!;
    if (remote !== null && !await remoteExists(state.top, remote)) {
      throw usage(`${label}'s repository has no remote '${remote}': see 'git remote -v'`);
    }
    const baseTip = await baseTipOf(state.top, tree.base, label, remote);
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
    // The index `--commit` built goes whatever happened: refused, dry, or landed.
    removeQuietly(scratchIndex(landFolder(state.commonDir)));
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Never made, or gone already.
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
  const { host, pane } = parsePaneRef(ref);
  // A pane on another host lands there, where its repository is; the ledger here notes it.
  if (host !== null && options.as !== "worktree") return await landOnHost(host, pane, options);
  const own = options.client ? null : await connectDaemon();
  const client = options.client ?? own!;
  try {
    const target = await client.call("worktree.get", { ref, as: options.as ?? "either" });
    return await landTarget(target, client, options);
  } finally {
    own?.close();
  }
}
