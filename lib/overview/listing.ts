/**
 * Asking skiffd for what a list of the workspace shows, in one request
 * (`workspace.list`), so that the dashboard can ask before its own code
 * loads.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceListing, WorkspaceListParams } from "../protocol/workspace.ts";

/**
 * Asks skiffd on `client`; the request goes out before this returns. With `first`, the answer
 * may hold only the panes of a first screen of that many rows (see `WorkspaceListing.cut`).
 */
export function askListing(
  client: DaemonClient,
  params: WorkspaceListParams = {},
): Promise<WorkspaceListing> {
  return client.call("workspace.list", params);
}

/** A listing asked for ahead of its use: its answer, and whether the answer came. */
export interface AskedListing {
  /** skiffd's answer. */
  answer: Promise<WorkspaceListing>;
  /** Whether it came (a failure counts as not). */
  arrived: boolean;
}

/** Asks skiffd on `client` now, for use later; a failure waits for that use. */
export function askAhead(client: DaemonClient, params: WorkspaceListParams = {}): AskedListing {
  const asked: AskedListing = { answer: askListing(client, params), arrived: false };
  asked.answer.then(() => asked.arrived = true, () => {});
  return asked;
}
