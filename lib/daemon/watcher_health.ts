/**
 * What skiffd knows of the watcher: which connection is its, and how its
 * last line went. The watcher keeps no state; skiffd only holds its health
 * so that `skiff skipper --json` and the app can show it.
 *
 * @module
 */

import type { WatcherHealth, WatchReport } from "../protocol/watch.ts";
import type { Connection } from "./connection.ts";
import type { EventBus } from "./events.ts";

/** The watcher's health, and the `watcher` events that tell of its changes. */
export class WatcherRegistry {
  readonly #events: EventBus;
  #connection: Connection | undefined;
  #health: WatcherHealth = {
    running: false,
    pid: null,
    started: null,
    ok: true,
    last: null,
    last_at: null,
    watching: [],
    waiting_lines: 0,
  };

  /** Tells of changes on `events`. */
  constructor(events: EventBus) {
    this.#events = events;
  }

  /** The health now. */
  status(): WatcherHealth {
    return { ...this.#health, watching: [...this.#health.watching] };
  }

  /** Makes `connection` the watcher's, until it closes. */
  register(connection: Connection, pid: number): WatcherHealth {
    this.#connection = connection;
    this.#health = {
      ...this.#health,
      running: true,
      pid,
      started: new Date().toISOString(),
      ok: true,
      last: "started",
      last_at: new Date().toISOString(),
    };
    connection.onClose(() => {
      if (this.#connection !== connection) return;
      this.#connection = undefined;
      this.#health = { ...this.#health, running: false, pid: null, started: null };
      this.#emit();
    });
    this.#emit();
    return this.status();
  }

  /** Records a report from the watcher's connection. */
  report(connection: Connection, report: WatchReport): WatcherHealth {
    if (this.#connection !== connection) this.register(connection, this.#health.pid ?? 0);
    const before = JSON.stringify({ ...this.#health, last_at: null });
    this.#health = {
      ...this.#health,
      ok: report.ok,
      last: report.last ?? this.#health.last,
      last_at: report.last ? new Date().toISOString() : this.#health.last_at,
      watching: [...report.watching],
      waiting_lines: report.waiting_lines,
    };
    // Only a change is news; the same report again is not.
    if (JSON.stringify({ ...this.#health, last_at: null }) !== before) this.#emit();
    return this.status();
  }

  #emit(): void {
    this.#events.emit("watcher", this.status());
  }
}
