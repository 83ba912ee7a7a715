/**
 * The ledger's side of a landing: the tasks sent on the branch (for the
 * messages, and to mark `landed`), and the task `--to-pane` sends the
 * worker when its branch conflicts with the base.
 *
 * The link from a task to a worktree: each send stores the id of the pane's
 * worktree (`worktree` in the ledger, version 5), which stays the same when
 * the worktree's pane is killed and a new one opened in it. A task sent
 * before the ledger kept that is found by its pane and its branch.
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { type Ledger, openLedger, type WorktreeTasks } from "../ledger/mod.ts";
import { agentLedgerPath, deliverTask } from "../tasks/mod.ts";
import type { DaemonClient } from "../client/client.ts";
import type { LandedTask } from "../protocol/land.ts";
import { subjectOf } from "./words.ts";

/** The ledger file a landing uses: the one given, else the Skiff agent's (null when none can be). */
export function landingLedgerPath(given: string | undefined): string | null {
  if (given !== undefined) return given;
  try {
    return agentLedgerPath();
  } catch {
    // No home folder for the agent's folder: there is no ledger to read.
    return null;
  }
}

/** Runs `use` on the ledger at `path` when it exists; null when there is none. */
function withLedger<T>(path: string | null, use: (ledger: Ledger) => T): T | null {
  if (path === null || !pathExists(path)) return null;
  const ledger = openLedger(path);
  try {
    return use(ledger);
  } finally {
    ledger.close();
  }
}

/** The tasks sent on a worktree's branch that have not landed yet (none without a ledger). */
export function tasksOnBranch(path: string | null, match: WorktreeTasks): LandedTask[] {
  return withLedger(path, (ledger) => ledger.tasksOn(match))?.map((row) => ({
    uid: row.uid,
    task: subjectOf(row.task),
  })) ?? [];
}

/** Marks them `landed` with the base's range; returns them. */
export function markLanded(
  path: string | null,
  match: WorktreeTasks,
  landing: { into: string; from: string; to: string },
): LandedTask[] {
  return withLedger(path, (ledger) => ledger.markLanded(match, landing))?.map((row) => ({
    uid: row.uid,
    task: subjectOf(row.task),
  })) ?? [];
}

/** The text of the task `--to-pane` sends the worker. */
export function conflictTask(branch: string, base: string, files: readonly string[]): string {
  return [
    `Your branch ${branch} conflicts with ${base}, so it could not be landed.`,
    `Rebase it onto ${base} (git rebase ${base}) and resolve the conflicts in: ${
      files.join(", ")
    }.`,
    "Keep both sides' intent, run the tests, and commit the result (no uncommitted changes left), then say it is ready to land.",
  ].join("\n");
}

/** How the `--to-pane` task went, as the refusal's `to_pane` field says. */
export interface ToPane {
  /** The task's uid, or null when none was made. */
  uid: string | null;
  /** Its shown state after the send, or null. */
  state: string | null;
  /** The send's exit code. */
  exit: number;
  /** What went wrong, or null. */
  error: string | null;
}

/**
 * Adds the conflict task for `pane` to the ledger (made when missing) and
 * sends it through the guarded delivery every task takes: a busy agent gets
 * it later (`pending`), and nothing is typed over a draft or an approval.
 */
export async function sendConflictTask(
  path: string | null,
  pane: { id: string; name: string } | null,
  text: string,
  client: DaemonClient,
): Promise<ToPane> {
  if (pane === null) {
    return { uid: null, state: null, exit: 3, error: "no pane holds the worktree to send it to" };
  }
  if (path === null) {
    return {
      uid: null,
      state: null,
      exit: 2,
      error: "the Skiff agent's ledger has no place (HOME is not set)",
    };
  }
  const ledger = openLedger(path);
  try {
    const info = await client.call("pane.get", { pane: pane.id });
    const row = ledger.add({
      pane: { id: info.id, name: info.name, generation: info.generation },
      task: text,
    });
    const delivery = await deliverTask(ledger, row.uid, { enter: true, client });
    return {
      uid: row.uid,
      state: delivery.shown,
      exit: delivery.exit,
      error: delivery.error?.message ?? null,
    };
  } catch (error) {
    return { uid: null, state: null, exit: 1, error: (error as Error).message };
  } finally {
    ledger.close();
  }
}
