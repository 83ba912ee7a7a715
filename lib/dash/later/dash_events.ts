/**
 * Following skiffd's numbered events for the dashboard, through skiffd's
 * restarts: a stop that says skiffd comes back shows as reconnecting, a stop
 * for good or a link lost for longer than a restart takes ends the
 * dashboard with a line that says why.
 *
 * @module
 */

import { followEvents } from "../../client/follow.ts";
import { Exit, SkiffError } from "../../errors.ts";
import type { Event } from "../../protocol/events.ts";

/** How long to look for skiffd again after it went away (a restart takes a few seconds). */
const RECONNECT_MS = 15_000;

/** What {@linkcode followDashEvents} tells the dashboard. */
export interface DashEventHandlers {
  /** Whether the dashboard ended: events after it are not told. */
  ended: () => boolean;
  /** The event stream is subscribed (again, after a restart): the link is live. */
  live: () => void;
  /** skiffd is stopping and says it comes back. */
  reconnecting: () => void;
  /** Any other event. */
  event: (event: Event) => void;
}

/**
 * Follows the events of the skiffd at `socket` until the dashboard ends, and
 * returns how the dashboard must end when skiffd went for good (undefined
 * when the dashboard ended first).
 */
export async function followDashEvents(
  socket: string,
  handlers: DashEventHandlers,
): Promise<{ code: number; line: string } | undefined> {
  try {
    for await (
      const event of followEvents({
        socket,
        reconnectMs: RECONNECT_MS,
        start: false,
        subscribed: handlers.live,
      })
    ) {
      if (handlers.ended()) return;
      if (event.event === "daemon-stopping") {
        if (!event.returning) {
          return { code: Exit.DAEMON, line: "skiffd was stopped; the dashboard ends" };
        }
        handlers.reconnecting();
        continue;
      }
      handlers.event(event);
    }
  } catch (error) {
    if (handlers.ended()) return;
    const message = error instanceof SkiffError
      ? error.message
      : `Lost skiffd: ${(error as Error).message}`;
    return { code: Exit.DAEMON, line: message };
  }
}
