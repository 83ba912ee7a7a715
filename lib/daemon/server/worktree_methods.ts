/**
 * skiffd's side of worktrees: a new pane in a worktree of its project, the
 * worktree methods, and the counts taken when a turn ends. Everything about
 * a worktree itself is `lib/worktree`'s; here panes meet it.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type {
  LandedInfo,
  NewWorktreeParams,
  WorktreeMethods,
  WorktreeTarget,
} from "../../protocol/worktrees.ts";
import {
  type PaneFacts,
  panesIn,
  projectNamed,
  type WorktreeRecord,
  type Worktrees,
} from "../../worktree/mod.ts";
import type { EventBus } from "../records/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import { checkNewPane, type NewPaneRequest, type Pane, paneEventFields } from "../panes/mod.ts";
import type { MethodContext, MethodTable } from "./method_types.ts";
import { flag, maybeString, needString, type Params } from "./params.ts";

/** A pane started in a worktree: the pane, and whether the worktree existed already. */
export interface PaneInWorktree {
  /** The pane. */
  pane: Pane;
  /** True when it was opened in a worktree that existed (nothing was made). */
  reopened: boolean;
}

/** Reads the optional `worktree` of `pane.new`. */
export function worktreeParams(params: Params): NewWorktreeParams | undefined {
  const value = params.worktree;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new SkiffError("Bad request: 'worktree' must be {name, branch?, base?}", {
      exit: "USAGE",
    });
  }
  const fields = value as Params;
  return {
    name: needString(fields, "name"),
    branch: maybeString(fields, "branch"),
    base: maybeString(fields, "base"),
  };
}

/**
 * Starts a pane in a new worktree of its project, or in the worktree of that
 * name Skiff made already when no running pane holds it. Every check of the
 * pane and of the worktree comes first; a pane that then cannot start takes
 * a worktree it made away with it, so a refusal leaves neither behind.
 */
export async function newPaneInWorktree(
  ctx: MethodContext,
  request: NewPaneRequest,
  worktree: NewWorktreeParams,
): Promise<PaneInWorktree> {
  if (request.project === undefined) {
    throw new SkiffError("A worktree needs a project: add --project P", { exit: "USAGE" });
  }
  if (request.cwd !== undefined) {
    throw new SkiffError("A pane with a worktree starts in it: leave out --cwd", {
      exit: "USAGE",
    });
  }
  checkNewPane(ctx.workspace.records, request, ctx.workspace.config);
  const project = projectNamed(ctx.workspace.config.projects, request.project);
  const made = await ctx.worktrees.make({ project, ...worktree }, paneFacts(ctx.workspace));
  let pane: Pane;
  try {
    pane = await ctx.workspace.newPane({
      ...request,
      cwd: made.cwd,
      worktree: made.record.id,
      name: request.name ?? ctx.workspace.records.uniquePaneName(worktree.name),
    });
  } catch (error) {
    await ctx.worktrees.unmake(made);
    throw error;
  }
  ctx.worktrees.madeFor(made.record, pane.id);
  return { pane, reopened: made.reopened };
}

/**
 * The worktree a new pane without `--worktree` starts in: the one Skiff
 * made whose folder holds its `cwd`, when no running pane holds it, so a
 * pane started there by hand is linked to it (and `diff` and `land` find it).
 */
export function worktreeAtCwd(ctx: MethodContext, cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  const record = ctx.worktrees.at(cwd);
  if (!record || panesIn(record, paneFacts(ctx.workspace)).length > 0) return undefined;
  return record.id;
}

/** What `as` asks `worktree.get` to find. */
function targetKind(params: Params): "pane" | "worktree" | "either" {
  const as = maybeString(params, "as") ?? "either";
  if (as !== "pane" && as !== "worktree" && as !== "either") {
    throw new SkiffError("Bad request: 'as' must be pane, worktree or either", { exit: "USAGE" });
  }
  return as;
}

/** The worktree of `pane`: the one it was made or opened with, else the one its folder is in. */
function worktreeOfPane(ctx: MethodContext, pane: Pane): WorktreeRecord | undefined {
  return ctx.worktrees.get(pane.saved.worktree) ?? ctx.worktrees.at(pane.saved.cwd);
}

/**
 * Finds a worktree and the pane that holds it, by a pane (`as: pane`), by
 * its name (`as: worktree`), or either, a pane first: a name no pane has
 * finds the worktree, so a worktree whose pane is gone is still reached.
 */
export function findTarget(
  ctx: MethodContext,
  ref: string,
  as: "pane" | "worktree" | "either",
): { pane: Pane | null; record: WorktreeRecord } {
  if (as !== "worktree") {
    ctx.workspace.refreshCwds();
    let pane: Pane | null = null;
    try {
      pane = ctx.workspace.resolvePane(ref);
    } catch (error) {
      if (as === "pane" || !(error instanceof SkiffError) || error.exit !== "NOT_FOUND") {
        throw error;
      }
    }
    if (pane) {
      const record = worktreeOfPane(ctx, pane);
      if (record) return { pane, record };
      if (as === "pane" || !ctx.worktrees.records.some((r) => r.name === ref)) {
        throw new SkiffError(
          `Pane '${pane.name}' has no worktree: start one with 'skiff new --project P --worktree NAME'`,
          { exit: "NOT_FOUND", details: { pane: pane.id, reason: "no_worktree" } },
        );
      }
    }
  }
  let record: WorktreeRecord;
  try {
    record = ctx.worktrees.find(ref);
  } catch (error) {
    if (as === "either" && error instanceof SkiffError && error.exit === "NOT_FOUND") {
      throw new SkiffError(`No pane or worktree '${ref}'. See 'skiff ls' and 'skiff worktree ls'`, {
        exit: "NOT_FOUND",
        details: { pane: ref, worktree: ref },
      });
    }
    throw error;
  }
  const holders = panesIn(record, paneFacts(ctx.workspace));
  const holder = holders.find((p) => p.worktree === record.id) ?? holders[0];
  return { pane: holder ? ctx.workspace.resolvePane(holder.id) : null, record };
}

/** A worktree by its name, or (when no worktree has that name) by a pane in it. */
function worktreeOrPane(ctx: MethodContext, ref: string): WorktreeRecord {
  try {
    return ctx.worktrees.find(ref);
  } catch (error) {
    if (!(error instanceof SkiffError) || error.exit !== "NOT_FOUND") throw error;
    try {
      return findTarget(ctx, ref, "pane").record;
    } catch {
      throw error;
    }
  }
}

/** Reads the `landed` of `worktree.landed`. */
function landedParams(params: Params): LandedInfo {
  const value = params.landed;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SkiffError("Bad request: 'landed' must be {at, into, from, to, strategy, commits}", {
      exit: "USAGE",
    });
  }
  const fields = value as Params;
  const strategy = needString(fields, "strategy");
  if (strategy !== "rebase" && strategy !== "merge" && strategy !== "squash") {
    throw new SkiffError("Bad request: 'strategy' must be rebase, merge or squash", {
      exit: "USAGE",
    });
  }
  const commits = fields.commits;
  if (typeof commits !== "number" || !Number.isInteger(commits) || commits < 0) {
    throw new SkiffError("Bad request: 'commits' must be a whole number", { exit: "USAGE" });
  }
  return {
    at: needString(fields, "at"),
    into: needString(fields, "into"),
    from: needString(fields, "from"),
    to: needString(fields, "to"),
    strategy,
    commits,
  };
}

/** The panes as the worktrees need to know them, with their folders read again. */
function paneFacts(workspace: LiveWorkspace): PaneFacts[] {
  workspace.refreshCwds();
  return workspace.panes.map((p) => ({
    id: p.id,
    name: p.name,
    status: p.status,
    cwd: p.saved.cwd,
    worktree: p.saved.worktree,
  }));
}

/** The worktree methods by name. */
export const WORKTREE_METHODS: MethodTable<keyof WorktreeMethods> = {
  "worktree.list": async (params, ctx) => {
    const project = maybeString(params, "project");
    if (project !== undefined) projectNamed(ctx.workspace.config.projects, project);
    return { worktrees: await ctx.worktrees.list(paneFacts(ctx.workspace), project) };
  },

  "worktree.remove": (params, ctx) =>
    ctx.worktrees.remove(
      worktreeOrPane(ctx, needString(params, "worktree")),
      {
        force: flag(params, "force"),
        deleteBranch: flag(params, "delete_branch"),
        endPanes: flag(params, "end_panes"),
      },
      paneFacts(ctx.workspace),
      (id) => ctx.workspace.kill(ctx.workspace.resolvePane(id)),
    ),

  "worktree.prune": async (params, ctx) => {
    const dryRun = flag(params, "dry_run");
    const pruned = await ctx.worktrees.prune(paneFacts(ctx.workspace), dryRun);
    if (!flag(params, "branches")) return { pruned, dry_run: dryRun };
    const projects = ctx.workspace.config.projects;
    return {
      pruned,
      dry_run: dryRun,
      branches_deleted: await ctx.worktrees.pruneBranches(projects, dryRun),
    };
  },

  "worktree.get": (params, ctx): WorktreeTarget => {
    const { pane, record } = findTarget(ctx, needString(params, "ref"), targetKind(params));
    const worktree = ctx.worktrees.brief(record, paneFacts(ctx.workspace));
    const info = pane ? ctx.workspace.info(pane) : null;
    return {
      pane: info ? { id: info.id, name: info.name, status: info.status, state: info.state } : null,
      worktree,
    };
  },

  "worktree.landed": async (params, ctx) => ({
    worktree: await ctx.worktrees.noteLanded(
      needString(params, "worktree"),
      landedParams(params),
      paneFacts(ctx.workspace),
    ),
  }),

  "worktree.branches": async (params, ctx) => {
    const project = maybeString(params, "project");
    const projects = ctx.workspace.config.projects;
    if (project !== undefined) projectNamed(projects, project);
    const chosen = project === undefined ? projects : projects.filter((p) => p.name === project);
    return { branches: await ctx.worktrees.leftBranches(chosen) };
  },

  "pane.worktree": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const record = ctx.worktrees.get(pane.saved.worktree);
    if (!record) {
      throw new SkiffError(
        `Pane '${pane.name}' has no worktree: start one with 'skiff new --project P --worktree NAME'`,
        { exit: "NOT_FOUND", details: { pane: pane.id, reason: "no_worktree" } },
      );
    }
    // No git here: `skiff diff` reads git itself; the pane's counts follow shortly.
    const worktree = ctx.worktrees.brief(record, paneFacts(ctx.workspace));
    return { pane: pane.id, name: pane.name, worktree };
  },
};

/**
 * Counts a pane's worktree when its turn ends, and every worktree of the
 * panes there are now (after a restore); tells each new count that changes
 * what a pane shows as a `worktree` event of each pane in it, so the lists
 * follow it. Returns the function that stops it.
 */
export function countWorktreesOnTurnEnd(
  events: EventBus,
  workspace: LiveWorkspace,
  worktrees: Worktrees,
): () => void {
  const stopTelling = worktrees.whenCounted((id) => {
    const view = worktrees.paneView(id);
    if (!view) return;
    for (const pane of workspace.panes) {
      if (pane.saved.worktree !== id) continue;
      events.emit("worktree", {
        ...paneEventFields(pane),
        worktree: view.worktree,
        diff: view.diff,
      });
    }
  });
  for (const pane of workspace.panes) worktrees.recount(pane.saved.worktree);
  const stopCounting = events.subscribe((event) => {
    if (event.event !== "turn-end") return;
    worktrees.recount(workspace.panes.find((p) => p.id === event.pane)?.saved.worktree);
  });
  return () => {
    stopTelling();
    stopCounting();
  };
}
