/**
 * Ending a pane, as `skiff kill` and the `kill_pane` tool do.
 *
 * @module
 */

import { withPane } from "../hosts/resolve.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { checkScope, type PaneOpOptions } from "./scope.ts";

/** What `skiff kill --json` prints: the pane as it was when it ended. */
export interface KillPaneResult {
  /** The pane that was killed. */
  killed: PaneInfo;
}

/** Ends pane `ref`'s process, removes the pane, and returns what `skiff kill --json` prints. */
export async function killPane(ref: string, options: PaneOpOptions = {}): Promise<KillPaneResult> {
  const killed = await withPane(ref, async (client, pane) => {
    await checkScope(client, pane, options.project);
    return await client.call("pane.kill", { pane });
  }, { access: options.access });
  return { killed };
}
