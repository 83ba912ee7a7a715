/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * What the sidebar shows, kept up to date from skiffd's events: a `state`
 * or `watcher` event changes what it names at once; an event that changes
 * the list itself (a pane made, gone, renamed, unread, …) lists again. One
 * listing runs at a time, and events that come meanwhile make one more.
 *
 * @module
 */

import type { WorkspaceView } from "../lib/app/api.ts";
import type { Event } from "../lib/protocol/events.ts";
import type { Connection } from "./connection.ts";

/** Events that change nothing the sidebar shows. */
const QUIET = new Set<string>(["typed", "title", "resized", "turn-start", "agent-start"]);

/** The sidebar's facts and who listens to them. */
export class Store {
  /** The facts, once listed. */
  view: WorkspaceView | undefined;
  readonly #connection: Connection;
  readonly #listeners = new Set<() => void>();
  #listing: Promise<void> | undefined;
  #again = false;

  /** A store fed by `connection`. */
  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Calls `listener` after each change. */
  subscribe(listener: () => void): void {
    this.#listeners.add(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Lists again (coalesced). */
  refresh(): Promise<void> {
    if (this.#listing) {
      this.#again = true;
      return this.#listing;
    }
    this.#listing = (async () => {
      do {
        this.#again = false;
        try {
          this.view = await this.#connection.call("workspace", {});
          this.#changed();
        } catch {
          // The connection went; it lists again when it is back.
        }
      } while (this.#again);
      this.#listing = undefined;
    })();
    return this.#listing;
  }

  /** Takes in one event. */
  apply(event: Event): void {
    const view = this.view;
    if (event.event === "watcher" && view) {
      const { event: _e, time: _t, run: _r, seq: _s, ...health } = event;
      view.watcher = health;
      this.#changed();
      return;
    }
    if (event.event === "state" && view) {
      const pane = view.panes.find((p) => p.id === event.pane);
      if (pane) {
        pane.state = event.state;
        pane.agent = event.agent;
        this.#changed();
        return;
      }
    }
    if (QUIET.has(event.event)) return;
    this.refresh();
  }
}
