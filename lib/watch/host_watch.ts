/**
 * Following the other hosts of open tasks for the watcher: one follower per
 * host the ledger has open tasks on, taken up when such a task appears and
 * let go when none is left, with each host's link held by the watcher's
 * connection to the local skiffd. The ledger's files are looked at once a
 * second, since a task added for another host makes no event here.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import type { Event } from "../protocol/events.ts";
import { ledgerStamp } from "../ledger/mod.ts";
import { INTERESTING } from "./facts.ts";
import { HostFollower, paneList } from "./host_follow.ts";
import type { HostPanes } from "./view.ts";

/** How often the watcher looks whether the ledger changed (for tasks on other hosts). */
export const LEDGER_LOOK_MS = 1000;

/** What a host's follower hands on: the events that may change a line, and `seen`. */
const FROM_HOSTS = new Set([...INTERESTING, "seen"]);

/** What {@linkcode HostsWatch} tells the watcher. */
export interface HostsWatchOptions {
  /** The ledger's path. */
  ledgerPath: () => string;
  /** Writes one line to the watcher's log. */
  log: (line: string) => void;
  /** The ledger's files changed: read everything again. */
  ledgerChanged: () => void;
  /** An event of a pane on a followed host (its key `HOST:ID`). */
  event: (event: Event) => Promise<void>;
  /** The follower of `host` is connected (again). */
  connected: (host: string) => Promise<void>;
  /** `host` cannot be reached, for `why`. */
  down: (host: string, why: string) => Promise<void>;
}

/** The followers of the hosts of open tasks; see the module's documentation. */
export class HostsWatch {
  readonly #options: HostsWatchOptions;
  /** One follower per host of open tasks. */
  readonly #followers = new Map<string, HostFollower>();
  /** The hosts whose link this watcher's connection holds. */
  #held = new Set<string>();
  #ledgerLook: ReturnType<typeof setInterval> | undefined;
  #ledgerStamp = "";

  /** Follows no host until {@linkcode HostsWatch.follow}. */
  constructor(options: HostsWatchOptions) {
    this.#options = options;
  }

  /** What is known of each followed host now, for the watcher's view. */
  panes(): HostPanes[] {
    return [...this.#followers.values()].map((f) => ({
      host: f.host,
      state: f.state,
      panes: f.panes,
    }));
  }

  /** The watcher has a new connection to skiffd: it holds no link yet. */
  connected(): void {
    this.#held = new Set();
  }

  /** A host's link changed: its follower looks again now. */
  wake(host: string): void {
    this.#followers.get(host)?.wake();
  }

  /**
   * Follows every host of `wanted` (the hosts of open tasks), and no other:
   * a follower for each, its link held by `client`, the watcher's connection.
   */
  follow(wanted: ReadonlyMap<string, number>, client: DaemonClient | undefined): void {
    // The ledger is looked at once a second (its files' stamps, without opening it): a task
    // added for another host makes no event here. The system's file events are not used: a
    // watch of the folder opens and closes the ledger's files, which takes SQLite's locks
    // away from this process's connection.
    this.#ledgerLook ??= setInterval(() => {
      let stamp: string;
      try {
        stamp = ledgerStamp(this.#options.ledgerPath());
      } catch {
        return;
      }
      if (stamp === this.#ledgerStamp) return;
      this.#ledgerStamp = stamp;
      this.#options.ledgerChanged();
    }, LEDGER_LOOK_MS);
    for (const [host, follower] of this.#followers) {
      if (wanted.has(host)) continue;
      follower.stop();
      this.#followers.delete(host);
      this.#options.log(`host ${host}: no open task there; not following it`);
    }
    for (const host of wanted.keys()) {
      if (!this.#held.has(host) && client) {
        this.#held.add(host);
        // Held while this connection lasts; the link is made in the background.
        client.call("hosts.link", { host, hold: true, wait_ms: 0 }).catch(() => {});
      }
      if (this.#followers.has(host)) continue;
      const follower = new HostFollower({
        host,
        log: this.#options.log,
        interesting: FROM_HOSTS,
        event: (event) => this.#guarded(() => this.#options.event(event)),
        connected: () => this.#guarded(() => this.#options.connected(host)),
        down: (why) => void this.#guarded(() => this.#options.down(host, why)),
        list: paneList,
      });
      this.#followers.set(host, follower);
      this.#options.log(`host ${host}: following its panes of open tasks`);
      follower.start();
    }
  }

  /** Stops following every host. */
  close(): void {
    clearInterval(this.#ledgerLook);
    for (const follower of this.#followers.values()) follower.stop();
    this.#followers.clear();
  }

  /** Runs `work`; a local skiffd that went meanwhile is the main loop's to handle. */
  async #guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof SkiffError) || error.exit !== "DAEMON") {
        this.#options.log(`host event failed: ${(error as Error)?.message ?? error}`);
      }
    }
  }
}
