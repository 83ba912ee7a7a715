/**
 * The page's live feed: skiffd's events, forwarded as they come, following
 * skiffd through reloads and restarts (`followEvents`). Each time the feed
 * is (again) live, the page hears `{subscribed: true}` and lists what is
 * there, knowing that no later event is missed.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { followEvents } from "../client/follow.ts";

/** Options for {@linkcode forwardEvents}. */
export interface ForwardOptions {
  /** skiffd's socket. */
  socket: string;
  /** Sends one message to the page. */
  send: (message: unknown) => void;
  /** Called when skiffd went away for good. */
  lost: (why: string) => void;
}

/** A running feed; `stop` ends it. */
export interface EventFeed {
  /** Ends the feed and its connection. */
  stop(): void;
}

/** Starts forwarding skiffd's events to one page. */
export function forwardEvents(options: ForwardOptions): EventFeed {
  let stopped = false;
  let current: DaemonClient | undefined;
  const run = async () => {
    const events = followEvents({
      socket: options.socket,
      start: false,
      connected: (client) => {
        current = client;
        // Stopped while it connected again: end here, the subscribe fails and the loop ends.
        if (stopped) client.close();
      },
      subscribed: () => options.send({ subscribed: true }),
    });
    for await (const event of events) {
      if (stopped) break;
      options.send(event);
    }
  };
  run().catch((error) => {
    if (!stopped) options.lost((error as Error).message);
  });
  return {
    stop: () => {
      stopped = true;
      current?.close();
    },
  };
}
