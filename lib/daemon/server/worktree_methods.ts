/**
 * skiffd's side of worktrees: a new pane in a worktree of its project, the
 * worktree methods, and the counts taken when a turn ends. Everything about
 * a worktree itself is `lib/worktree`'s; here panes meet it.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { NewWorktreeParams, WorktreeMethods } from "../../protocol/worktrees.ts";
import { type PaneFacts, projectNamed, type Worktrees } from "../../worktree/mod.ts";
import type { EventBus } from "../records/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import { checkNewPane, type NewPaneRequest, type Pane } from "../panes/mod.ts";
import type { MethodContext, MethodTable } from "./method_types.ts";
import { flag, maybeString, needString, type Params } from "./params.ts";

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
 * Starts a pane in a new worktree of its project. Every check of the pane
 * and of the worktree comes first; a pane that then cannot start takes its
 * worktree away with it, so a refusal leaves neither behind.
 */
export async function newPaneInWorktree(
  ctx: MethodContext,
  request: NewPaneRequest,
  worktree: NewWorktreeParams,
): Promise<Pane> {
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
  const made = await ctx.worktrees.make({ project, ...worktree });
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
  return pane;
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

/** A method of the landing's contract that the next commits fill in. */
function notYet(method: string): never {
  throw new SkiffError(`${method} is not implemented yet`, { exit: "ERROR" });
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
      needString(params, "worktree"),
      { force: flag(params, "force"), deleteBranch: flag(params, "delete_branch") },
      paneFacts(ctx.workspace),
      (id) => ctx.workspace.kill(ctx.workspace.resolvePane(id)),
    ),

  "worktree.prune": async (params, ctx) => {
    const dryRun = flag(params, "dry_run");
    return { pruned: await ctx.worktrees.prune(paneFacts(ctx.workspace), dryRun), dry_run: dryRun };
  },

  "worktree.get": () => notYet("worktree.get"),
  "worktree.landed": () => notYet("worktree.landed"),
  "worktree.branches": () => notYet("worktree.branches"),

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
 * panes there are now (after a restore). Returns the function that stops it.
 */
export function countWorktreesOnTurnEnd(
  events: EventBus,
  workspace: LiveWorkspace,
  worktrees: Worktrees,
): () => void {
  for (const pane of workspace.panes) worktrees.recount(pane.saved.worktree);
  return events.subscribe((event) => {
    if (event.event !== "turn-end") return;
    worktrees.recount(workspace.panes.find((p) => p.id === event.pane)?.saved.worktree);
  });
}
