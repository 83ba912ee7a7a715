/**
 * A pane's worktree against its base, as `skiff diff` and the `pane_diff`
 * tool read it: on this machine through git here, on another host through
 * that host's own `skiff diff` over the link. A worktree whose pane is gone
 * is named by itself (`NAME`, `PROJECT/NAME`).
 *
 * @module
 */

import { Exit, type ExitName, SkiffError } from "../errors.ts";
import { parsePaneRef, withPane, withSkiffd } from "../hosts/resolve.ts";
import { runOnHost } from "../hosts/run.ts";
import type { WorktreeInfo } from "../protocol/worktrees.ts";
import { type FileChange, type WorktreeDiff, worktreeDiff } from "../worktree/mod.ts";
import { checkScope, outOfScope, type PaneOpOptions } from "./scope.ts";

/** Options for {@linkcode readPaneDiff}. */
export interface ReadPaneDiffOptions extends PaneOpOptions {
  /** Include the patch (default true); without it only the counts. */
  patch?: boolean;
  /** Colour the patch (a local pane's only, for a terminal). */
  color?: boolean;
  /** `ref` names a worktree (`NAME`, `PROJECT/NAME`), not a pane (`skiff diff --worktree`). */
  worktreeOnly?: boolean;
}

/** A worktree found for a diff, and the pane in it (null when none is). */
export interface FoundWorktree {
  /** The pane that holds it, or null. */
  pane: { id: string; name: string } | null;
  /** The worktree. */
  worktree: WorktreeInfo;
}

/** A pane's diff as read: where the pane is, its worktree, and the diff. */
export interface PaneDiffRead {
  /** The pane's host, or null. */
  host: string | null;
  /** The worktree and its pane. */
  found: FoundWorktree;
  /** The diff. */
  diff: WorktreeDiff;
}

/** What `skiff diff --json` prints (`patch` is left out with `stat`). */
export interface PaneDiffResult {
  /** The pane's host, or null. */
  host: string | null;
  /** The pane's id, or null when no pane holds the worktree. */
  pane: string | null;
  /** The pane's name, or null. */
  name: string | null;
  /** Its worktree. */
  worktree: { name: string; branch: string; path: string; base: string };
  /** The commit the diff is from. */
  from: string;
  /** How many files changed. */
  files: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Each file's change. */
  changes: FileChange[];
  /** The patch, unless only the counts were asked for. */
  patch?: string;
}

/**
 * The diff of a worktree on another host: git runs there, through the host's
 * own `skiff diff` over the link, and its JSON comes back as a diff.
 */
async function diffOnHost(host: string, pane: string, patch: boolean): Promise<WorktreeDiff> {
  const args = ["diff", pane, "--json", ...(patch ? [] : ["--stat"])];
  const run = await runOnHost(host, args);
  if (run.code !== 0) {
    let error: { message?: string; code?: string } = {};
    try {
      error = JSON.parse(run.stderr).error ?? {};
    } catch {
      // Not JSON: the host's words as they are.
    }
    const exit = (error.code?.toUpperCase() ?? "ERROR") as ExitName;
    throw new SkiffError(`${host}: ${error.message ?? run.stderr.trim()}`, {
      exit: exit in Exit ? exit : "ERROR",
      details: { host },
    });
  }
  const result = JSON.parse(new TextDecoder().decode(run.stdout));
  return {
    from: result.from,
    files: result.changes,
    stat: { files: result.files, added: result.added, removed: result.removed },
    patch: typeof result.patch === "string" ? new TextEncoder().encode(result.patch) : null,
  };
}

/**
 * Finds the worktree of `ref`: the one place a diff looks it up. `HOST:PANE`
 * goes through the resolver to a pane on another host; here a pane, or a
 * worktree (`NAME`, `PROJECT/NAME`) whose pane may be gone.
 */
async function findWorktree(ref: string, options: ReadPaneDiffOptions): Promise<FoundWorktree> {
  if (!options.worktreeOnly && parsePaneRef(ref).host !== null) {
    const found = await withPane(ref, async (client, pane) => {
      await checkScope(client, pane, options.project);
      return await client.call("pane.worktree", { pane });
    }, { access: options.access });
    return { pane: { id: found.pane, name: found.name }, worktree: found.worktree };
  }
  const found = await withSkiffd(null, (client) =>
    client.call("worktree.get", {
      ref,
      as: options.worktreeOnly ? "worktree" : "either",
    }), { access: options.access });
  if (options.project !== undefined && found.worktree.project !== options.project) {
    throw outOfScope(ref, options.project);
  }
  const pane = found.pane ? { id: found.pane.id, name: found.pane.name } : null;
  return { pane, worktree: found.worktree };
}

/**
 * Reads the worktree diff of `ref` (a pane, or a worktree whose pane may be
 * gone). `NOT_FOUND` when there is no such pane or worktree, the pane has no
 * worktree, or its worktree is missing.
 */
export async function readPaneDiff(
  ref: string,
  options: ReadPaneDiffOptions = {},
): Promise<PaneDiffRead> {
  const host = options.worktreeOnly ? null : parsePaneRef(ref).host;
  const found = await findWorktree(ref, options);
  const patch = options.patch ?? true;
  const diff = host === null
    ? await worktreeDiff(found.worktree, { patch, color: options.color ?? false })
    : await diffOnHost(host, found.pane!.id, patch);
  return { host, found, diff };
}

/** Options for {@linkcode paneDiff}. */
export interface PaneDiffOptions extends PaneOpOptions {
  /** Only each file's counts and the totals, no patch. */
  stat?: boolean;
  /** `ref` names a worktree, not a pane (`skiff diff --worktree`). */
  worktreeOnly?: boolean;
}

/** Reads pane `ref`'s worktree diff and returns what `skiff diff --json` prints. */
export async function paneDiff(
  ref: string,
  options: PaneDiffOptions = {},
): Promise<PaneDiffResult> {
  const { host, found, diff } = await readPaneDiff(ref, { ...options, patch: !options.stat });
  const tree = found.worktree;
  return {
    host,
    pane: found.pane?.id ?? null,
    name: found.pane?.name ?? null,
    worktree: { name: tree.name, branch: tree.branch, path: tree.path, base: tree.base },
    from: diff.from,
    files: diff.stat.files,
    added: diff.stat.added,
    removed: diff.stat.removed,
    changes: diff.files,
    ...(diff.patch ? { patch: new TextDecoder().decode(diff.patch) } : {}),
  };
}
