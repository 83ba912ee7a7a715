/**
 * One skiffd's events (this machine's or a host's) for `skiff mcp`'s
 * subscriptions, heard on the server's kept connection to it: skiffd
 * answers requests on a connection subscribed to its events (the client
 * tells event lines from answers), so the connection the tools call on
 * carries them too, and following them costs no connection of its own.
 * When that connection is made again (a reload, a restart, a link that came
 * back), the feed subscribes on the new one after the last event it saw,
 * and skiffd replays what came between, or says `resync`.
 *
 * A connection stays subscribed once it is (skiffd has no unsubscribe):
 * with no listener left, its events are dropped here.
 *
 * @module
 */

import type { DaemonClient, EventSubscription } from "../client/client.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { Event } from "../protocol/events.ts";

/** The first wait before trying again when the connection cannot be had. */
const FIRST_RETRY_MS = 250;

/** The longest wait between tries (a host that is down, a skiffd that was stopped). */
const LAST_RETRY_MS = 5_000;

/** Hears an event. */
export type EventListener = (event: Event) => void;

/** The events of the skiffd that `open` connects to (its kept connection), for every listener. */
export class EventFeed {
  readonly #open: () => Promise<DaemonClient>;
  readonly #listeners = new Set<EventListener>();
  #cursor: EventCursor | undefined;
  #running = false;
  #closed = false;
  #wake: (() => void) | undefined;

  /** A feed of the events on the connections `open` gives (the same one while it lasts). */
  constructor(open: () => Promise<DaemonClient>) {
    this.#open = open;
  }

  /** Tells `listener` every event from now on; the function returned stops that. */
  listen(listener: EventListener): () => void {
    this.#listeners.add(listener);
    this.#wake?.();
    if (!this.#running && !this.#closed) {
      this.#running = true;
      this.#run().finally(() => this.#running = false);
    }
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Whether anyone listens. */
  get listened(): boolean {
    return this.#listeners.size > 0;
  }

  async #run(): Promise<void> {
    let delay = FIRST_RETRY_MS;
    while (!this.#closed) {
      if (this.#listeners.size === 0) {
        await this.#pause();
        continue;
      }
      let events: EventSubscription;
      try {
        const client = await this.#open();
        if (this.#closed) return;
        events = await client.subscribe(this.#cursor ? { after: this.#cursor } : {});
      } catch {
        // skiffd is not there now (stopped, restarting; a host whose link is down): later.
        await this.#pause(delay);
        delay = Math.min(delay * 2, LAST_RETRY_MS);
        continue;
      }
      delay = FIRST_RETRY_MS;
      this.#cursor = events.cursor;
      for await (const event of events) {
        this.#cursor = events.cursor;
        for (const listener of [...this.#listeners]) listener(event);
      }
      // The connection ended: the next one is subscribed after the last event seen.
    }
  }

  /** Waits `ms` (for ever when not given), or until a listener comes or the feed closes. */
  #pause(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      const wake = () => done();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = wake;
    });
  }

  /** Stops following (the connection itself is its owner's to close). */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#wake?.();
  }
}
