/**
 * Landing a worktree on another host (`skiff land HOST:PANE`): its
 * repository is there, so the host's own `skiff land` does the landing,
 * run over the host's link as `skiff diff HOST:PANE` runs there; its JSON
 * comes back as the result or the refusal. The ledger is here: the tasks
 * sent on the branch from this machine are read and marked here (they are
 * the row's `host`), the commit message `--commit` makes without `-m` is
 * made from them, and `--to-pane` sends its task from here.
 *
 * @module
 */

import { Exit, type ExitName, SkiffError } from "../errors.ts";
import { connectHost } from "../hosts/resolve.ts";
import { runOnHost } from "../hosts/run.ts";
import type { LandResult } from "../protocol/land.ts";
import type { WorktreeTarget } from "../protocol/worktrees.ts";
import {
  conflictTask,
  landingLedgerPath,
  markLanded,
  sendConflictTask,
  tasksOnBranch,
} from "./ledger_tasks.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, type LandOptions } from "./options.ts";
import { commitMessage } from "./words.ts";

/** How long the host's landing may take besides its check. */
const SLACK_MS = 600_000;

/** The host's `skiff land` arguments for `options` (without `--to-pane`, which runs here). */
function landArgs(pane: string, options: LandOptions, message: string | undefined): string[] {
  const args = ["land", pane, "--json"];
  if (options.strategy === "merge") args.push("--merge");
  if (options.strategy === "squash") args.push("--squash");
  if (options.commit) args.push("--commit");
  if (message !== undefined) args.push("-m", message);
  if (options.check === false) args.push("--no-check");
  if (options.checkTimeoutMs !== undefined) {
    args.push("--check-timeout", String(options.checkTimeoutMs / 1000));
  }
  if (options.remove) args.push("--remove");
  if (options.deleteBranch) args.push("--delete-branch");
  if (options.dryRun) args.push("--dry-run");
  if (options.pr) args.push("--pr");
  else if (options.push !== undefined) args.push("--push");
  if (options.push !== undefined) args.push(options.push);
  if (options.draft) args.push("--draft");
  return args;
}

/** The worktree of `pane` on `host`, asked of its skiffd. */
async function targetOn(host: string, pane: string): Promise<WorktreeTarget> {
  const { client, holder } = await connectHost(host, { hold: true });
  try {
    return await client.call("worktree.get", { ref: pane, as: "pane" });
  } finally {
    client.close();
    holder?.close();
  }
}

/** The host's refusal as a refusal here: its exit code and fields, its words after the host's name. */
function refusalFrom(host: string, stderr: string): SkiffError {
  let error: Record<string, unknown> = {};
  try {
    error = JSON.parse(stderr.trim().split("\n").at(-1) ?? "").error ?? {};
  } catch {
    // Not JSON: the host's words as they are.
  }
  const { code, exit: _, message, ...details } = error;
  const name = String(code ?? "error").toUpperCase() as ExitName;
  return new SkiffError(`${host}: ${message ?? stderr.trim()}`, {
    exit: name in Exit ? name : "ERROR",
    details: { ...details, host },
  });
}

/** Lands the worktree of `pane` on `host`. See the module's notes. */
export async function landOnHost(
  host: string,
  pane: string,
  options: LandOptions,
): Promise<LandResult> {
  const target = await targetOn(host, pane);
  const tree = target.worktree;
  const ledgerPath = landingLedgerPath(options.ledgerPath);
  const match = {
    host,
    worktree: tree.id,
    branch: tree.branch,
    panes: target.pane ? [target.pane.id] : [],
  };
  const tasks = tasksOnBranch(ledgerPath, match);
  const message = options.commit && options.message === undefined
    ? commitMessage({ name: tree.name, branch: tree.branch, tasks })
    : options.message;
  const timeout = (options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) + SLACK_MS;
  options.onProgress?.(`Landing ${tree.project}/${tree.name} on ${host}`);
  const run = await runOnHost(host, landArgs(target.pane?.id ?? pane, options, message), timeout);
  if (run.code !== 0) {
    const error = refusalFrom(host, run.stderr);
    if (error.details.reason === "merge_conflict" && options.toPane && !options.dryRun) {
      const files = (error.details.conflicts ?? []) as string[];
      const sent = await sendConflictTask(
        ledgerPath,
        target.pane ? { ...target.pane, host } : null,
        conflictTask(tree.branch, tree.base, files),
      );
      error.details.to_pane = sent;
      error.message += sent.uid
        ? `; task ${sent.uid} for ${host}:${target.pane?.name} is ${sent.state}`
        : `; no task was sent: ${sent.error}`;
    }
    throw error;
  }
  const { schema_version: _, ...landed } = JSON.parse(new TextDecoder().decode(run.stdout));
  const result = landed as LandResult;
  if (result.outcome === "landed" && result.base.after !== null) {
    try {
      const marked = markLanded(ledgerPath, match, {
        into: result.base.name,
        from: result.base.before,
        to: result.base.after,
      });
      result.tasks = [...result.tasks, ...marked];
    } catch (error) {
      result.warnings.push(
        `The ledger's tasks could not be marked landed: ${(error as Error).message}`,
      );
    }
  } else if (result.outcome === "dry_run") {
    result.tasks = [...result.tasks, ...tasks];
  }
  return result;
}
