/**
 * The last count of each worktree, for `skiff ls`: what a pane's row shows
 * of its worktree (the commits ahead and behind, merged, its diff) without
 * running git.
 *
 * Counting runs git, so it never happens on a hot path: `skiff ls` reads the
 * last count. A count is taken when a pane's turn ends and on demand
 * (`skiff diff`, `skiff worktree ls`), one worktree at a time, each git run
 * with a time limit, and a worktree asked for while it is being counted is
 * counted once more afterwards, not once per ask.
 *
 * @module
 */

import type { DiffStat, PaneWorktree } from "../protocol/worktrees.ts";
import type { WorktreeRecord } from "./records.ts";
import { inspect, type Inspection } from "./status.ts";

/** The last count of a worktree. */
export interface Count {
  /** The branch checked out then, or null when detached. */
  branch: string | null;
  /** Its changes against the base. */
  stat: DiffStat;
  /** The whole inspection, when the count came from one. */
  seen?: Inspection;
}

/** What a worktree just made has changed: nothing. */
export const NO_CHANGES: DiffStat = { files: 0, added: 0, removed: 0 };

/** What {@linkcode WorktreeCounts} reads the records with and logs to. */
export interface WorktreeCountsOptions {
  /** The record with `id`, if it exists. */
  get: (id: string | undefined) => WorktreeRecord | undefined;
  /** Writes a line to skiffd's log. */
  log: (line: string) => void;
}

/** The last counts of a skiffd's worktrees, and the queue that takes them again. */
export class WorktreeCounts {
  readonly #get: (id: string | undefined) => WorktreeRecord | undefined;
  readonly #log: (line: string) => void;
  readonly #counts = new Map<string, Count>();
  readonly #counted = new Set<(id: string) => void>();
  /** Worktrees waiting to be counted, in order. */
  readonly #queue = new Set<string>();
  #counting: Promise<void> | null = null;
  /** Worktrees whose last count failed, so the failure is logged once. */
  readonly #failing = new Set<string>();

  /** Counts kept for the records `options.get` finds. */
  constructor(options: WorktreeCountsOptions) {
    this.#get = options.get;
    this.#log = options.log;
  }

  /**
   * Calls `listener` with a worktree's id whenever it was counted again and
   * what a pane's description shows of it ({@linkcode WorktreeCounts.paneView})
   * changed, or {@linkcode WorktreeCounts.tell} is called. Returns the
   * function that stops it.
   */
  whenCounted(listener: (id: string) => void): () => void {
    this.#counted.add(listener);
    return () => this.#counted.delete(listener);
  }

  /** Tells every listener that worktree `id` changed (Skiff landed it). */
  tell(id: string): void {
    for (const listener of this.#counted) listener(id);
  }

  /** The last count of worktree `id`, if one was kept. */
  last(id: string): Count | undefined {
    return this.#counts.get(id);
  }

  /** Notes a worktree just made: its branch, with no changes yet. */
  made(record: WorktreeRecord): void {
    this.#counts.set(record.id, { branch: record.branch, stat: NO_CHANGES });
  }

  /** Drops the count of a worktree that is gone. */
  forget(id: string): void {
    this.#counts.delete(id);
  }

  /** What `skiff ls` shows of a pane's worktree: the last count, never a git run. */
  paneView(id: string | undefined): { worktree: PaneWorktree; diff: DiffStat | null } | null {
    const record = this.#get(id);
    if (!record) return null;
    const count = this.#counts.get(record.id);
    return {
      worktree: {
        id: record.id,
        name: record.name,
        branch: count?.branch ?? record.branch,
        path: record.path,
        ahead: count?.seen?.ahead ?? null,
        behind: count?.seen?.behind ?? null,
        merged: count?.seen?.merged ?? null,
        landed: record.landed ? { ...record.landed } : null,
      },
      diff: count ? { ...count.stat } : null,
    };
  }

  /** Asks for a count of worktree `id` (coalesced: see the module's notes). */
  recount(id: string | undefined): void {
    if (!this.#get(id)) return;
    this.#queue.add(id!);
    this.#counting ??= this.#drain().finally(() => this.#counting = null);
  }

  /** Resolves once every count asked for so far is done. */
  async settled(): Promise<void> {
    while (this.#counting) await this.#counting;
  }

  async #drain(): Promise<void> {
    while (this.#queue.size > 0) {
      const id = this.#queue.values().next().value!;
      this.#queue.delete(id);
      const record = this.#get(id);
      if (!record) continue;
      try {
        this.keep(record, await inspect(record));
      } catch (error) {
        if (!this.#failing.has(id)) {
          this.#log(`worktree ${id}: count failed: ${(error as Error).message}`);
        }
        this.#failing.add(id);
      }
    }
  }

  /** Keeps what an inspection of `record` saw, telling the listeners when what shows changed. */
  keep(record: WorktreeRecord, seen: Inspection): void {
    const before = this.#counted.size > 0 ? JSON.stringify(this.paneView(record.id)) : "";
    if (seen.missing || !seen.changes) {
      this.#counts.delete(record.id);
    } else {
      this.#failing.delete(record.id);
      this.#counts.set(record.id, {
        branch: seen.status?.branch ?? null,
        stat: { ...seen.changes.stat },
        seen,
      });
    }
    if (this.#counted.size > 0 && JSON.stringify(this.paneView(record.id)) !== before) {
      this.tell(record.id);
    }
  }
}
