/**
 * Asking skiffd for what a list of the workspace shows, in one go: its panes,
 * its sessions and the watcher's health. Apart from the config's part (see
 * `workspace.ts`), so that the dashboard can ask before its own code loads.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceView } from "./view.ts";

/** skiffd's part of a {@linkcode WorkspaceView}. */
export type Listing = Pick<WorkspaceView, "panes" | "sessions" | "watcher">;

/** Asks skiffd on `client`; the three requests go out at once, before this returns. */
export async function askListing(client: DaemonClient): Promise<Listing> {
  const [{ panes }, { sessions }, watcher] = await Promise.all([
    client.call("pane.list"),
    client.call("session.list"),
    client.call("watch.status"),
  ]);
  return { panes, sessions, watcher };
}

/** A listing asked for ahead of its use: its answer, and whether the answer came. */
export interface AskedListing {
  /** skiffd's answer. */
  answer: Promise<Listing>;
  /** Whether it came (a failure counts as not). */
  arrived: boolean;
}

/** Asks skiffd on `client` now, for use later; a failure waits for that use. */
export function askAhead(client: DaemonClient): AskedListing {
  const asked: AskedListing = { answer: askListing(client), arrived: false };
  asked.answer.then(() => asked.arrived = true, () => {});
  return asked;
}
