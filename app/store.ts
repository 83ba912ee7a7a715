/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * What the sidebar shows, kept up to date from skiffd's events, folded in
 * as the dashboard folds them (`lib/overview/fold.ts`): an event that says
 * what changed (a state, an unread reason, a name, the watcher) changes the
 * list at once; one that makes or ends panes or sessions lists again. One
 * listing runs at a time, and events that come meanwhile make one more.
 *
 * @module
 */

import type { WorkspaceView } from "../lib/app/api.ts";
import { foldEvent } from "../lib/overview/fold.ts";
import type { Event } from "../lib/protocol/events.ts";
import type { Connection } from "./connection.ts";

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
    // Before the first listing there is nothing to fold into: it lists what is there.
    if (!this.view) return void this.refresh();
    const outcome = foldEvent(this.view, event);
    if (outcome === "changed") this.#changed();
    else if (outcome === "relist") this.refresh();
  }
}
