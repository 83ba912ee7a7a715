/**
 * The tool that lands a pane's worktree, offered only when the `land` gate
 * is open: `land_pane`, as `skiff land --json`, all or nothing.
 *
 * @module
 */

import { z } from "zod";
import { DEFAULT_REMOTE } from "../../land/mod.ts";
import { landPane } from "../../ops/mod.ts";
import { defineTool, ms, paneRef } from "./tool.ts";
import { PANE } from "./schemas.ts";

const COMMIT = z.looseObject({ commit: z.string().nullable(), subject: z.string() });

/** `land_pane`: as `skiff land --json`. */
export const LAND_PANE = defineTool({
  name: "land_pane",
  gate: "land",
  title: "Land a pane's worktree on its base",
  description:
    "Bring the work of a pane's git worktree home, as 'skiff land --json' does: rebase its branch onto the base's tip (or merge, or squash), run the project's check in the worktree, and move the base (fast-forward the checkout that has it checked out, or swap its ref), or with push/pr push the branch instead. Either all of it happens or nothing does: a refusal (uncommitted work unless commit, merge_conflict with the files, check_failed with its last lines, base_dirty, pane_busy, …) leaves every ref, the index and every file as they were. dry_run says what would happen. The ledger tasks sent on the branch are marked landed. pane may also name a worktree whose pane is gone (NAME or PROJECT/NAME).",
  input: z.object({
    pane: PANE,
    strategy: z.enum(["rebase", "merge", "squash"]).optional().describe(
      "How the commits go onto the base (default rebase)",
    ),
    commit: z.boolean().optional().describe("Commit the worktree's uncommitted work first"),
    message: z.string().min(1).optional().describe("With commit: its message"),
    check: z.boolean().optional().describe("Run the project's check (default true)"),
    check_timeout_seconds: z.number().positive().max(86400).optional().describe(
      "How long the check may run (default 15 minutes)",
    ),
    dry_run: z.boolean().optional().describe("Say what would happen and change nothing"),
    push: z.string().min(1).optional().describe(
      "Push the branch to this remote instead of landing it on the local base",
    ),
    pr: z.boolean().optional().describe("Push (to push, or origin) and open a pull request"),
    draft: z.boolean().optional().describe("With pr: a draft pull request"),
    to_pane: z.boolean().optional().describe(
      "On a conflict, send the worker a ledger task to rebase and resolve it",
    ),
    remove: z.boolean().optional().describe("Remove the worktree after landing (its pane ends)"),
    delete_branch: z.boolean().optional().describe("With remove: delete its branch too"),
  }),
  output: z.looseObject({
    outcome: z.enum(["landed", "pushed", "pr", "up_to_date", "dry_run"]),
    dry_run: z.boolean(),
    pane: z.looseObject({ id: z.string(), name: z.string() }).nullable(),
    worktree: z.looseObject({ name: z.string(), branch: z.string(), path: z.string() }),
    strategy: z.enum(["rebase", "merge", "squash"]),
    base: z.looseObject({ name: z.string(), before: z.string(), after: z.string().nullable() }),
    commits: z.array(COMMIT),
    range: z.string().nullable(),
    tasks: z.array(z.looseObject({ uid: z.string(), task: z.string() })),
    warnings: z.array(z.string()),
  }),
  readOnly: false,
  run: (input, context) =>
    landPane(paneRef(input.pane, context), {
      strategy: input.strategy,
      commit: input.commit,
      message: input.message,
      check: input.check,
      checkTimeoutMs: ms(input.check_timeout_seconds),
      dryRun: input.dry_run,
      push: input.push ?? (input.pr ? DEFAULT_REMOTE : undefined),
      pr: input.pr,
      draft: input.draft,
      toPane: input.to_pane,
      remove: input.remove,
      deleteBranch: input.delete_branch,
      project: context.project,
      access: context.access,
    }),
});
