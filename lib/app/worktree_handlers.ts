/**
 * The page's worktree methods: the Diff view's patch, made as `skiff diff`
 * makes it (`worktreeDiff` of `lib/worktree`), and the Land button, which
 * calls `landWorktree` of `lib/land`, the very function `skiff land` runs.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { SkiffError } from "../errors.ts";
import { landWorktree } from "../land/mod.ts";
import type { LandResult } from "../protocol/land.ts";
import { worktreeDiff } from "../worktree/mod.ts";
import type { DiffView } from "./api.ts";

/**
 * The longest patch a page is sent, in characters: past it the patch is cut
 * after a whole file, and the rest of the files are listed without lines.
 */
export const DIFF_PATCH_LIMIT = 16 * 1024 * 1024;

/** A pane of another host (`HOST:ID`): its worktree is there, not here. */
function refuseOtherHost(pane: string, what: string): void {
  const colon = pane.indexOf(":");
  if (colon === -1) return;
  throw new SkiffError(
    `The app ${what} this machine's panes only: run 'skiff ${what === "diffs" ? "diff" : "land"} ${
      pane.slice(colon + 1)
    }' on ${pane.slice(0, colon)}`,
    { exit: "USAGE" },
  );
}

/** `patch` cut before the first file that would take it past `limit` characters. */
export function cutPatch(patch: string, limit: number): { patch: string; truncated: boolean } {
  if (patch.length <= limit) return { patch, truncated: false };
  const cut = patch.lastIndexOf("\ndiff --git ", limit);
  return { patch: cut > 0 ? patch.slice(0, cut + 1) : "", truncated: true };
}

/** The Diff view of `pane`'s worktree (and a fresh count for the listing, as `skiff diff` asks). */
export async function diffView(
  client: DaemonClient,
  pane: string,
  options: { limit?: number } = {},
): Promise<DiffView> {
  refuseOtherHost(pane, "diffs");
  const found = await client.call("pane.worktree", { pane });
  const tree = found.worktree;
  const diff = await worktreeDiff(tree, { patch: true, color: false });
  const limit = options.limit ?? DIFF_PATCH_LIMIT;
  const { patch, truncated } = cutPatch(new TextDecoder().decode(diff.patch!), limit);
  return {
    pane: { id: found.pane, name: found.name },
    worktree: {
      name: tree.name,
      branch: tree.branch,
      base: tree.base,
      path: tree.path,
      ahead: tree.ahead,
      behind: tree.behind,
      landed: tree.landed,
    },
    from: diff.from,
    files: diff.files,
    stat: { ...diff.stat },
    patch,
    truncated,
    limit,
  };
}

/** Lands `pane`'s worktree as `skiff land PANE` does, or (with `dryRun`) says what it would do. */
export async function landPane(
  client: DaemonClient,
  pane: string,
  options: { dryRun: boolean },
): Promise<LandResult> {
  refuseOtherHost(pane, "lands");
  return await landWorktree(pane, { as: "pane", dryRun: options.dryRun, client });
}
