/**
 * Following skiffd's events across reloads and restarts: when the
 * connection drops, connect again and resume after the last event seen.
 * skiffd replays what came in between, or says `resync` when it cannot.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { Event } from "../protocol/events.ts";
import type { DaemonClient } from "./client.ts";
import { connectDaemon, reconnect } from "./connect.ts";

/** Options for {@linkcode followEvents}. */
export interface FollowOptions {
  /** The socket; by default the configured one. */
  socket?: string;
  /** Start after this place in the stream; by default, from now. */
  after?: EventCursor;
  /** How long to look for skiffd again after it went away (default 10 s). */
  reconnectMs?: number;
  /** Start skiffd when none answers at first (default true). */
  start?: boolean;
  /** Called with each new connection, for callers that also make requests on it. */
  connected?: (client: DaemonClient) => void | Promise<void>;
  /**
   * Called once each subscription is live, before its first event: the
   * place to list what is there now, knowing no later event is missed.
   */
  subscribed?: (client: DaemonClient) => void | Promise<void>;
}

/**
 * Yields skiffd's events, one by one, following it through reloads and
 * restarts. Throws exit `DAEMON` when skiffd does not come back within
 * `reconnectMs`.
 */
export async function* followEvents(options: FollowOptions = {}): AsyncGenerator<Event> {
  const reconnectMs = options.reconnectMs ?? 10_000;
  let cursor = options.after;
  let client: DaemonClient | undefined = await connectDaemon({
    socket: options.socket,
    start: options.start,
  });
  try {
    while (client) {
      await options.connected?.(client);
      const subscription = await client.subscribe({ after: cursor });
      cursor = subscription.cursor;
      await options.subscribed?.(client);
      for await (const event of subscription) {
        cursor = subscription.cursor;
        yield event;
      }
      client.close();
      client = await reconnect(reconnectMs, options.socket);
    }
  } finally {
    client?.close();
  }
  throw new SkiffError("skiffd went away and did not come back", { exit: "DAEMON" });
}
