/**
 * The watcher's methods: it registers with skiffd, reports how its last
 * line went, and anyone may ask for its health (`skiff skipper --json`, the
 * app's icon). skiffd sends a `watcher` event whenever the health changes.
 *
 * @module
 */

/** The watcher's health, as skiffd knows it. */
export interface WatcherHealth {
  /** Whether a watcher is connected to skiffd now. */
  running: boolean;
  /** Its process id, while it runs. */
  pid: number | null;
  /** When its process started (ISO 8601; when it registered, for a watcher that does not say), while it runs. */
  started: string | null;
  /** Whether its last line went well (true before any line). */
  ok: boolean;
  /** The last thing it did, for people. */
  last: string | null;
  /** When it did it (ISO 8601). */
  last_at: string | null;
  /** The panes it follows (the panes of open tasks). */
  watching: string[];
  /** How many lines wait to be typed. */
  waiting_lines: number;
}

/** What the watcher reports after each action. */
export interface WatchReport {
  /** Whether the action went well (a line typed and a turn started, or nothing to do). */
  ok: boolean;
  /** What it did, for people. */
  last?: string;
  /** The panes it follows. */
  watching: string[];
  /** How many lines wait to be typed. */
  waiting_lines: number;
}

/** The watcher's methods: name → params and result. */
export interface WatchMethods {
  /**
   * Makes this connection the watcher's; its end means the watcher stopped.
   * `started` is when the watcher's process started (ISO 8601), so a watcher
   * that reconnects (after a restart of skiffd) keeps its start time;
   * `reconnected` says it registered with a skiffd before.
   */
  "watch.register": {
    params: { pid: number; started?: string; reconnected?: boolean };
    result: WatcherHealth;
  };
  /** Reports the watcher's last action. */
  "watch.report": { params: WatchReport; result: WatcherHealth };
  /** The watcher's health. */
  "watch.status": { params: Record<string, never>; result: WatcherHealth };
  /**
   * Forgets the lines typed about `pane`, as a `seen` event of it would:
   * for what this skiffd never sees marked seen, such as a pane on another
   * host (`HOST:ID`) or a line about a host (`@HOST`).
   */
  "watch.forget": { params: { pane: string }; result: { forgotten: number } };
}
