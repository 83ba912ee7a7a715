/**
 * The worktrees of a skiffd: it asks here for everything about them. A pane
 * keeps only its worktree's id (`SavedPane.worktree`); this holds the
 * records, makes, reopens, describes and removes worktrees, and keeps each
 * one's last counted changes for `skiff ls` (in `counts.ts`, which says when
 * a count is taken).
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { Project } from "../config/config.ts";
import { SkiffError } from "../errors.ts";
import type {
  DiffStat,
  LandedInfo,
  LeftBranch,
  PaneWorktree,
  RemovedWorktree,
  WorktreeInfo,
} from "../protocol/worktrees.ts";
import { makeWorktree, planWorktree, unmakeWorktree, type WorktreeRequest } from "./create.ts";
import { type WorktreeRecord, WorktreeStore } from "./records.ts";
import { pruneGitEntry, removalLosses, removeWorktree, uniqueCommits } from "./remove.ts";
import { inspect, type Inspection, missingInspection, missingReason } from "./status.ts";
import { WorktreeCounts } from "./counts.ts";
import { describeAs, inside, type PaneFacts, panesIn } from "./describe.ts";
import { deleteMergedBranch, leftBranches } from "./branches.ts";
import { reopenCheck } from "./reopen.ts";

export type { PaneFacts };

/** Options for {@linkcode Worktrees}. */
export interface WorktreesOptions {
  /** The records' file. */
  file: string;
  /** Writes a line to skiffd's log. */
  log: (line: string) => void;
}

/** What a worktree made (or reopened) for a new pane gives the pane. */
export interface MadeWorktree {
  /** Its record. */
  record: WorktreeRecord;
  /** The folder the pane starts in. */
  cwd: string;
  /** True when it existed and no running pane held it: nothing was made. */
  reopened: boolean;
}

function folderExists(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The worktrees Skiff made, for one skiffd. */
export class Worktrees {
  readonly #store: WorktreeStore;
  readonly #log: (line: string) => void;
  /** The last count of each worktree. */
  readonly #counts: WorktreeCounts;
  /** Worktrees made or opened for a pane that has not started yet: held already. */
  readonly #opening = new Set<string>();

  /** Reads the records. */
  constructor(options: WorktreesOptions) {
    this.#store = new WorktreeStore(options.file, { log: options.log });
    this.#log = options.log;
    this.#counts = new WorktreeCounts({ get: (id) => this.#store.get(id), log: options.log });
  }

  /**
   * Calls `listener` with a worktree's id whenever it was counted again and
   * what a pane's description shows of it ({@linkcode Worktrees.paneView})
   * changed, or Skiff landed it. Returns the function that stops it.
   */
  whenCounted(listener: (id: string) => void): () => void {
    return this.#counts.whenCounted(listener);
  }

  /** Every record, oldest first. */
  get records(): readonly WorktreeRecord[] {
    return this.#store.all;
  }

  /** Finds a record by `NAME` or `PROJECT/NAME` (throws NOT_FOUND, or USAGE when ambiguous). */
  find(ref: string): WorktreeRecord {
    return this.#store.find(ref);
  }

  /** The record with `id`, if it exists. */
  get(id: string | undefined): WorktreeRecord | undefined {
    return this.#store.get(id);
  }

  /** The worktree whose folder holds `folder` (the deepest when they nest), if any. */
  at(folder: string): WorktreeRecord | undefined {
    let best: WorktreeRecord | undefined;
    for (const record of this.#store.all) {
      if (inside(folder, record.path) && record.path.length > (best?.path.length ?? -1)) {
        best = record;
      }
    }
    return best;
  }

  /**
   * Checks a request and makes the worktree: every refusal comes before
   * anything is made. The record is saved first, so a crash never leaves a
   * worktree without one. A worktree of that name that Skiff made already is
   * opened again when no running pane among `panes` holds it (and refused
   * when one does, or when the request asks for another branch or base).
   */
  async make(request: WorktreeRequest, panes: readonly PaneFacts[] = []): Promise<MadeWorktree> {
    const existing = this.#store.named(request.project.name, request.name);
    if (existing) {
      if (this.#opening.has(existing.id)) {
        throw new SkiffError(
          `Worktree '${existing.project}/${existing.name}' is being opened for another pane just now: pick another name, or wait for that pane`,
          { exit: "CONFLICT", details: { reason: "worktree_held" } },
        );
      }
      reopenCheck(existing, request, panesIn(existing, panes));
      this.#opening.add(existing.id);
      this.#log(`worktree ${existing.id} (${existing.project}/${existing.name}) opened again`);
      this.recount(existing.id);
      const cwd = existing.subdir ? join(existing.path, existing.subdir) : existing.path;
      return { record: existing, cwd, reopened: true };
    }
    const plan = await planWorktree(request, (project, name) => this.#store.named(project, name));
    // Checked again with no wait between the check and the record, so two `new`s at once make one.
    const { project, name, path, repo, branch } = plan.record;
    const clash = this.#store.all.find((r) =>
      (r.project === project && r.name === name) || r.path === path ||
      (r.repo === repo && r.branch === branch)
    );
    if (clash) {
      throw new SkiffError(
        `Worktree '${clash.project}/${clash.name}' was just made with this name, folder or branch: pick another name`,
        { exit: "CONFLICT", details: { reason: "name_taken" } },
      );
    }
    const record = this.#store.add(plan.record);
    this.#opening.add(record.id);
    try {
      await makeWorktree(record, plan);
    } catch (error) {
      this.#opening.delete(record.id);
      this.#store.remove(record.id);
      throw error;
    }
    this.#counts.made(record);
    this.#log(`worktree ${record.id} (${record.project}/${record.name}) made at ${record.path}`);
    return { record, cwd: plan.cwd, reopened: false };
  }

  /** Notes the pane a worktree was made for. A failed save only logs: the pane holds the link. */
  madeFor(record: WorktreeRecord, pane: string): void {
    this.#opening.delete(record.id);
    try {
      this.#store.setPane(record.id, pane);
    } catch (error) {
      this.#log(`worktree ${record.id}: ${(error as Error).message}`);
    }
  }

  /** Takes away a worktree just made whose pane did not start, with its record (never a reopened one). */
  async unmake(made: MadeWorktree): Promise<void> {
    this.#opening.delete(made.record.id);
    if (made.reopened) return;
    try {
      await unmakeWorktree(made.record);
    } catch (error) {
      this.#log(`worktree ${made.record.id}: could not take it away: ${(error as Error).message}`);
    }
    this.#counts.forget(made.record.id);
    this.#store.remove(made.record.id);
  }

  /** What `skiff ls` shows of a pane's worktree: the last count, never a git run. */
  paneView(id: string | undefined): { worktree: PaneWorktree; diff: DiffStat | null } | null {
    return this.#counts.paneView(id);
  }

  /** The folder a restored pane of worktree `id` comes back in, when it is there. */
  folderOf(id: string | undefined): string | undefined {
    const record = this.#store.get(id);
    return record ? record.path : undefined;
  }

  /** Asks for a count of worktree `id` (coalesced: see `counts.ts`). */
  recount(id: string | undefined): void {
    this.#counts.recount(id);
  }

  /** Resolves once every count asked for so far is done. */
  settled(): Promise<void> {
    return this.#counts.settled();
  }

  /** Describes one worktree with what git says now (and keeps its count). */
  async describe(record: WorktreeRecord, panes: readonly PaneFacts[]): Promise<WorktreeInfo> {
    let seen: Inspection;
    try {
      seen = await inspect(record);
    } catch (error) {
      // No git is the person's to fix, not a missing worktree: say so.
      if (error instanceof SkiffError && error.details.reason === "git_missing") throw error;
      seen = missingInspection((error as Error).message);
    }
    this.#counts.keep(record, seen);
    return describeAs(record, seen, panes);
  }

  /**
   * Describes one worktree from its last count, without running git, and
   * asks for a fresh count: for `skiff diff`, which reads git itself.
   */
  brief(record: WorktreeRecord, panes: readonly PaneFacts[]): WorktreeInfo {
    const missing = missingReason(record);
    const seen = this.#counts.last(record.id)?.seen;
    this.recount(record.id);
    return describeAs(
      record,
      !missing && seen ? seen : missingInspection(missing),
      panes,
    );
  }

  /** Lists the worktrees (of `project`, when given), each as git sees it now. */
  async list(panes: readonly PaneFacts[], project?: string): Promise<WorktreeInfo[]> {
    const out: WorktreeInfo[] = [];
    for (const record of this.#store.all) {
      if (project === undefined || record.project === project) {
        out.push(await this.describe(record, panes));
      }
    }
    return out;
  }

  /** Notes a landing Skiff made of worktree `id`, and counts it again. */
  async noteLanded(
    id: string,
    landed: LandedInfo,
    panes: readonly PaneFacts[],
  ): Promise<WorktreeInfo> {
    const record = this.#store.get(id);
    if (!record) {
      throw new SkiffError(`No worktree '${id}'. See 'skiff worktree ls'`, {
        exit: "NOT_FOUND",
        details: { worktree: id },
      });
    }
    this.#store.setLanded(id, landed);
    this.#log(
      `worktree ${id} (${record.project}/${record.name}) landed on ${landed.into}: ${landed.from}..${landed.to}`,
    );
    const described = await this.describe(this.#store.get(id)!, panes);
    // The landing shows even when the count came out the same.
    this.#counts.tell(id);
    return described;
  }

  /**
   * Removes a worktree. Refuses (exit `CONFLICT`), unless `force`: work that
   * would be lost (the error says what), and running panes in it (which
   * `force` ends first through `endPane`; so does `endPanes`, which still
   * refuses to lose work). A locked worktree, or a branch another worktree
   * holds, is refused even with `force`. `ref` is `NAME`, `PROJECT/NAME`, or
   * a record found already.
   */
  async remove(
    ref: string | WorktreeRecord,
    options: { force: boolean; deleteBranch: boolean; endPanes?: boolean },
    panes: readonly PaneFacts[],
    endPane: (id: string) => void,
  ): Promise<RemovedWorktree> {
    const record = typeof ref === "string" ? this.#store.find(ref) : ref;
    const label = `${record.project}/${record.name}`;
    const losses = await removalLosses(record, options);
    if (losses.blocked) {
      throw new SkiffError(`Worktree '${label}' cannot be removed: ${losses.blocked}`, {
        exit: "CONFLICT",
        details: { reason: "blocked" },
      });
    }
    const users = panesIn(record, panes);
    if (!options.force && !options.endPanes && users.length > 0) {
      const names = users.map((p) => `${p.id} (${p.name})`).join(", ");
      throw new SkiffError(
        `Worktree '${label}' is in use by running pane ${names}: end it first, or use --force, which ends it`,
        { exit: "CONFLICT", details: { reason: "pane_running", panes: users.map((p) => p.id) } },
      );
    }
    if (!options.force && losses.lines.length > 0) {
      throw new SkiffError(
        `Worktree '${label}' holds work that would be lost: ${
          losses.lines.join("; ")
        }. Commit or merge it first, or use --force`,
        { exit: "CONFLICT", details: { reason: "work_would_be_lost", lost: losses.lines } },
      );
    }
    const before = await this.describe(record, panes);
    // What only the kept branch holds, counted before the folder goes (its HEAD counts no more then).
    const unique = options.deleteBranch ? 0 : await uniqueCommits(record);
    for (const pane of users) endPane(pane.id);
    let removal;
    try {
      removal = await removeWorktree(record, options);
    } finally {
      // Once the folder is gone, the record goes too, whatever happened to the branch.
      if (!folderExists(record.path)) this.#forget(record);
    }
    this.#forget(record);
    this.#log(
      `worktree ${record.id} (${label}) removed${options.force ? " with --force" : ""}${
        removal.branchDeleted ? ", branch deleted" : ""
      }`,
    );
    return {
      worktree: before,
      branch_deleted: removal.branchDeleted,
      panes_killed: users.map((p) => p.id),
      discarded: options.force ? losses.lines : [],
      ignored: removal.ignored,
      unique_commits: unique,
    };
  }

  #forget(record: WorktreeRecord): void {
    if (!this.#store.get(record.id)) return;
    this.#store.remove(record.id);
    this.#counts.forget(record.id);
  }

  /**
   * The `skiff/*` branches of the repositories of `projects` whose worktree
   * is gone: checked out nowhere (a record whose folder went counts as gone).
   */
  async leftBranches(projects: readonly Project[]): Promise<LeftBranch[]> {
    return await leftBranches(projects);
  }

  /**
   * Deletes the merged ones of {@linkcode leftBranches} (each with a
   * compare-and-swap on the tip that was read), or with `dryRun` only says
   * which. A branch that is not merged is never touched.
   */
  async pruneBranches(projects: readonly Project[], dryRun: boolean): Promise<LeftBranch[]> {
    const merged = (await leftBranches(projects)).filter((b) => b.merged);
    if (dryRun) return merged;
    const deleted: LeftBranch[] = [];
    for (const branch of merged) {
      if (await deleteMergedBranch(branch)) {
        deleted.push(branch);
        this.#log(`branch ${branch.branch} of ${branch.repo} deleted: merged into ${branch.base}`);
      }
    }
    return deleted;
  }

  /**
   * Drops the records of worktrees whose folder or repository is gone (as
   * the file system says, so a failing git never prunes anything), and tidies
   * git's entries for them. With `dryRun`, only says which.
   */
  async prune(panes: readonly PaneFacts[], dryRun: boolean): Promise<WorktreeInfo[]> {
    const pruned: WorktreeInfo[] = [];
    for (const record of [...this.#store.all]) {
      // Only a folder or a repository that is gone: a worktree git cannot read now stays.
      if (!missingReason(record)) continue;
      const info = await this.describe(record, panes);
      pruned.push(info);
      if (dryRun) continue;
      await pruneGitEntry(record);
      this.#forget(record);
      this.#log(`worktree ${record.id} (${record.project}/${record.name}) pruned: ${info.missing}`);
    }
    return pruned;
  }
}

/** The project of `name` from `projects`, or NOT_FOUND. */
export function projectNamed(projects: readonly Project[], name: string): Project {
  const project = projects.find((p) => p.name === name);
  if (!project) {
    throw new SkiffError(`No project '${name}'. See 'skiff project ls'`, { exit: "NOT_FOUND" });
  }
  return project;
}
