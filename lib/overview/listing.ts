/**
 * Asking skiffd for what a list of the workspace shows, in one request
 * (`workspace.list`), so that the dashboard can ask before its own code
 * loads.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceListing } from "../protocol/workspace.ts";

/** Asks skiffd on `client`; the request goes out before this returns. */
export function askListing(client: DaemonClient): Promise<WorkspaceListing> {
  return client.call("workspace.list");
}

/** A listing asked for ahead of its use: its answer, and whether the answer came. */
export interface AskedListing {
  /** skiffd's answer. */
  answer: Promise<WorkspaceListing>;
  /** Whether it came (a failure counts as not). */
  arrived: boolean;
}

/** Asks skiffd on `client` now, for use later; a failure waits for that use. */
export function askAhead(client: DaemonClient): AskedListing {
  const asked: AskedListing = { answer: askListing(client), arrived: false };
  asked.answer.then(() => asked.arrived = true, () => {});
  return asked;
}
