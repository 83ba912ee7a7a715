/**
 * Clearing a pane's unread flag, as `skiff seen`, the app and the
 * `mark_seen` tool do.
 *
 * @module
 */

import { withPane } from "../hosts/resolve.ts";
import type { ResultOf } from "../protocol/methods.ts";
import { checkScope, type PaneOpOptions } from "./scope.ts";

/** What `skiff seen --json` prints. */
export type MarkSeenResult = ResultOf<"pane.seen">;

/** Options for {@linkcode markSeen}. */
export interface MarkSeenOptions extends PaneOpOptions {
  /** Start the local skiffd when none runs (default true). */
  start?: boolean;
}

/** Marks pane `ref` seen and returns what `skiff seen --json` prints: what was cleared. */
export async function markSeen(
  ref: string,
  options: MarkSeenOptions = {},
): Promise<MarkSeenResult> {
  return await withPane(ref, async (client, pane) => {
    await checkScope(client, pane, options.project);
    return await client.call("pane.seen", { pane });
  }, { access: options.access, start: options.start });
}
