/**
 * Landing a pane's worktree on its base, as `skiff land` and the
 * `land_pane` tool do: the landing is `lib/land`'s, whole; here a project
 * scope is checked first, and the connection comes from the caller's.
 *
 * @module
 */

import { parsePaneRef, withPane, withSkiffd } from "../hosts/resolve.ts";
import { type LandOptions, type LandResult, landWorktree } from "../land/mod.ts";
import { checkScope, outOfScope, type PaneOpOptions } from "./scope.ts";

/** Options for {@linkcode landPane}: the landing's own, and a project scope. */
export type LandPaneOptions = Omit<LandOptions, "client"> & PaneOpOptions;

/**
 * Lands the worktree of `ref` (a pane, `HOST:PANE`, or a worktree `NAME` /
 * `PROJECT/NAME`) and returns what `skiff land --json` prints. A refusal is
 * a `SkiffError` whose details are a `LandRefusalDetails`, and it changed
 * nothing. With a project scope, a worktree of another project is
 * `NOT_FOUND`, as if it were not there.
 */
export async function landPane(ref: string, options: LandPaneOptions = {}): Promise<LandResult> {
  const { project, access, ...land } = options;
  if (parsePaneRef(ref).host !== null && land.as !== "worktree") {
    // It lands on its host, through that host's own `skiff land`.
    if (project !== undefined) {
      await withPane(ref, (client, pane) => checkScope(client, pane, project), { access });
    }
    return await landWorktree(ref, land);
  }
  return await withSkiffd(null, async (client) => {
    if (project !== undefined) {
      const target = await client.call("worktree.get", { ref, as: land.as ?? "either" });
      if (target.worktree.project !== project) throw outOfScope(ref, project);
    }
    return await landWorktree(ref, { ...land, client });
  }, { access });
}
