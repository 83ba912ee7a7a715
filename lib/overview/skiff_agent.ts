/**
 * Finding the Skiff agent's pane among all panes: the pane of the session
 * marked as the Skiff agent's, a running one first.
 *
 * @module
 */

import type { ListedPane } from "../protocol/workspace.ts";
import { isSkiffAgentPane } from "../protocol/workspace_order.ts";

export { isSkiffAgentPane };

/** The Skiff agent's pane, if its session exists: a running one first. */
export function skiffAgentPane(panes: readonly ListedPane[]): ListedPane | null {
  const mine = panes.filter(isSkiffAgentPane);
  return mine.find((p) => p.status === "running") ?? mine[0] ?? null;
}
