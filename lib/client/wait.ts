/**
 * `skiff wait` on a local pane, through an upgrade of skiffd: the pane's
 * process runs on across `skiff daemon upgrade`, so a wait cut off by it is
 * made again on the skiffd that answers next, for the time that is left.
 * After a restart or a crash the pane runs a new process (a new
 * generation): that wait ends with skiffd's closed connection, as before.
 *
 * @module
 */

import type { WaitState } from "../protocol/agents.ts";
import type { ResultOf } from "../protocol/methods.ts";
import { ConnectionClosed, type DaemonClient } from "./client.ts";
import { reconnect } from "./connect.ts";

/** How long to look for skiffd again after it dropped a wait. */
const RECONNECT_MS = 30_000;

/** Options for {@linkcode waitFollowingUpgrades}. */
export interface WaitOptions {
  /** The state to wait for. */
  until: WaitState;
  /** Give up after this long (ms); none: wait for ever. */
  timeoutMs?: number;
  /** The socket, to connect again. */
  socket?: string;
}

/**
 * Waits on `client` until pane `pane` reaches `until`, making the wait
 * again after an upgrade of skiffd cut it off (see the module's description).
 */
export async function waitFollowingUpgrades(
  client: DaemonClient,
  pane: string,
  options: WaitOptions,
): Promise<ResultOf<"pane.wait">> {
  const { generation, id } = await client.call("pane.get", { pane });
  // Counted from here: the first wait gets the whole time asked for, and says so if it ends.
  const started = Date.now();
  let current = client;
  try {
    for (;;) {
      const left = options.timeoutMs === undefined
        ? undefined
        : Math.max(0, options.timeoutMs - (Date.now() - started));
      try {
        const result = await current.call("pane.wait", {
          pane: id,
          until: options.until,
          ...(left === undefined ? {} : { timeout_ms: left }),
        });
        return { ...result, waited_ms: Date.now() - started };
      } catch (error) {
        if (!(error instanceof ConnectionClosed)) throw error;
        const again = await reconnect(RECONNECT_MS, options.socket);
        if (!again) throw error;
        if (current !== client) current.close();
        current = again;
        const now = await current.call("pane.get", { pane: id }).catch(() => undefined);
        // Another process in the pane (a restart): what was waited for is gone.
        if (!now || now.generation !== generation) throw error;
      }
    }
  } finally {
    if (current !== client) current.close();
  }
}
