/**
 * What skiffd knows of the watcher: which connection is its, how its last
 * line went, and the lines it typed into the Skiff agent's pane. The watcher
 * keeps no state; skiffd holds its health so that `skiff skipper --json` and
 * the app can show it, and its lines so that a watcher killed mid-wake never
 * gets a line typed twice by the next one.
 *
 * @module
 */

import type { TellLine } from "../../protocol/agents.ts";
import type { WatcherHealth, WatchReport } from "../../protocol/watch.ts";
import type { Connection } from "./connection.ts";
import type { EventBus } from "../records/mod.ts";

/** How many lines skiffd remembers for one pane that is never marked seen. */
const MAX_TOLD_PER_PANE = 200;

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

  /** The lines typed about each pane since it was last marked seen. */
  readonly #told = new Map<string, string[]>();

  readonly #log: ((line: string) => void) | undefined;

  /**
   * Tells of changes on `events`, and forgets a pane's lines when it is
   * marked seen; `log` (skiffd's log) hears when a watcher connects.
   */
  constructor(events: EventBus, log?: (line: string) => void) {
    this.#events = events;
    this.#log = log;
    events.subscribe((event) => {
      if (event.event === "seen") this.#told.delete(event.pane);
    });
  }

  /** The lines of `tells` that were typed already (and not marked seen since). */
  alreadyTold(tells: readonly TellLine[]): string[] {
    return tells.filter((t) => this.#told.get(t.pane)?.includes(t.line)).map((t) => t.line);
  }

  /** Forgets the lines typed about `pane`; returns how many there were. */
  forget(pane: string): number {
    const lines = this.#told.get(pane)?.length ?? 0;
    this.#told.delete(pane);
    return lines;
  }

  /** Remembers lines that went in, each until its pane is marked seen. */
  remember(tells: readonly TellLine[]): void {
    for (const { pane, line } of tells) {
      const lines = this.#told.get(pane) ?? [];
      if (!lines.includes(line)) lines.push(line);
      // A pane nobody marks seen must not grow skiffd for ever: its oldest lines go.
      this.#told.set(pane, lines.slice(-MAX_TOLD_PER_PANE));
    }
  }

  /** The lines remembered for each pane, for a new skiffd after an upgrade. */
  toldLines(): Record<string, string[]> {
    return Object.fromEntries([...this.#told].map(([pane, lines]) => [pane, [...lines]]));
  }

  /** Remembers lines a skiffd before this one remembered (see {@linkcode WatcherRegistry.toldLines}). */
  rememberTold(told: Record<string, string[]>): void {
    for (const [pane, lines] of Object.entries(told)) {
      this.remember(lines.map((line) => ({ pane, line })));
    }
  }

  /** The health now. */
  status(): WatcherHealth {
    return { ...this.#health, watching: [...this.#health.watching] };
  }

  /**
   * Makes `connection` the watcher's, until it closes. `started` is when its
   * process started (a watcher that reconnects keeps it); `reconnected`
   * says it was connected to a skiffd before.
   */
  register(
    connection: Connection,
    pid: number,
    options: { started?: Date; reconnected?: boolean } = {},
  ): WatcherHealth {
    this.#connection = connection;
    const now = new Date().toISOString();
    this.#health = {
      ...this.#health,
      running: true,
      pid,
      started: options.started?.toISOString() ?? now,
      ok: true,
      last: options.reconnected ? "reconnected" : "started",
      last_at: now,
    };
    this.#log?.(
      `the watcher pid ${pid} ${options.reconnected ? "reconnected" : "connected"}` +
        (options.started ? `, running since ${this.#health.started}` : ""),
    );
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
