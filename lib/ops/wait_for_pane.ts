/**
 * Waiting until a pane reaches a state, as `skiff wait` and the
 * `wait_for_pane` tool do.
 *
 * @module
 */

import { withPane } from "../hosts/resolve.ts";
import type { WaitState } from "../protocol/agents.ts";
import type { ResultOf } from "../protocol/methods.ts";
import { waitFollowingUpgrades } from "../client/wait.ts";
import { checkScope, type PaneOpOptions } from "./scope.ts";

/** The states a wait can be for. */
export const WAIT_STATES = [
  "idle",
  "working",
  "waiting",
  "exited",
  "shell",
] as const satisfies readonly WaitState[];

/** Options for {@linkcode waitForPane}. */
export interface WaitForPaneOptions extends PaneOpOptions {
  /** The state to wait for (default idle). */
  until?: WaitState;
  /** Give up after this long, in ms (default: wait for ever). */
  timeoutMs?: number;
}

/** What `skiff wait --json` prints. */
export type WaitForPaneResult = ResultOf<"pane.wait">;

/**
 * Waits until pane `ref` reaches the state, and returns what `skiff wait
 * --json` prints. `TIMEOUT`, `NOT_RUNNING` (the process exited) and
 * `NO_AGENT` (only an agent gets there) are errors. A local pane's wait
 * follows skiffd through an upgrade.
 */
export async function waitForPane(
  ref: string,
  options: WaitForPaneOptions = {},
): Promise<WaitForPaneResult> {
  const until = options.until ?? "idle";
  const local = !ref.includes(":");
  return await withPane(ref, async (client, pane) => {
    await checkScope(client, pane, options.project);
    return local
      ? await waitFollowingUpgrades(client, pane, { until, timeoutMs: options.timeoutMs })
      : await client.call("pane.wait", { pane, until, timeout_ms: options.timeoutMs });
  }, { access: options.access });
}
