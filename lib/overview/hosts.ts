/**
 * The panes of other hosts for a list (the dashboard, the app): one
 * follower per host of projects.toml, each subscribed to its host's events
 * through the link the local skiffd holds (pushed, never polled), reading
 * the host's panes again when one is made, changes state, is read, renamed
 * or goes, with `workspace.list` where the host's Skiff has it. A list shows each host as a group of its own; a host that cannot
 * be reached shows as such, with why.
 *
 * A pane of another host is keyed `HOST:ID` in a list, so every command
 * that takes a pane takes the key as it is.
 *
 * @module
 */

import { loadConfig } from "../config/config.ts";
import type { DaemonClient } from "../client/client.ts";
import { SkiffError } from "../errors.ts";
import { hostNames } from "../hosts/config.ts";
import { linkTimes } from "../hosts/link_times.ts";
import type { HostLink } from "../protocol/hosts.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import { HostFollower, PANE_NEWS } from "../watch/host_follow.ts";
import type { HostPane, HostView } from "./view.ts";

/** The events after which a list reads a host's panes again. */
const LIST_EVENTS = new Set([
  "pane-created",
  "pane-restored",
  "pane-renamed",
  "state",
  ...PANE_NEWS,
  "seen",
  "resized",
]);

/**
 * A host's panes as a list shows them: from `workspace.list`, which skips
 * the look in `/proc` per pane at the process in front that `pane.list`
 * takes and no list shows; from `pane.list` where the host's Skiff predates
 * `workspace.list`. It is asked the new way each time, since a `skiff daemon
 * upgrade` there may bring the method, as for an older skiffd here.
 */
export async function listedPanes(client: DaemonClient): Promise<ListedPane[]> {
  try {
    return (await client.call("workspace.list")).panes;
  } catch (error) {
    if (!(error instanceof SkiffError && error.exit === "PROTOCOL")) throw error;
  }
  return (await client.call("pane.list")).panes;
}

/** A host's pane as a list keeps it. */
export function hostPane(host: string, pane: ListedPane): HostPane {
  return { ...pane, id: `${host}:${pane.id}`, host };
}

/** Follows the hosts of projects.toml for a list; see the module's documentation. */
export class HostsFollow {
  readonly #followers = new Map<string, HostFollower<ListedPane>>();
  readonly #why = new Map<string, { why: string; when: string | null }>();
  readonly #changed: () => void;
  readonly #log: (line: string) => void;

  /** Follows every host of projects.toml now; `changed` hears of every change. */
  constructor(options: { changed: () => void; log?: (line: string) => void }) {
    this.#changed = options.changed;
    this.#log = options.log ?? (() => {});
    this.sync();
  }

  /** Follows the hosts projects.toml has now (added ones start, removed ones stop). */
  sync(): void {
    let names: string[] = [];
    try {
      names = hostNames(loadConfig());
    } catch {
      // A broken projects.toml: the hosts followed stay as they are.
      return;
    }
    for (const [host, follower] of this.#followers) {
      if (names.includes(host)) continue;
      follower.stop();
      this.#followers.delete(host);
    }
    for (const host of names) {
      if (this.#followers.has(host)) continue;
      const follower = new HostFollower({
        host,
        log: this.#log,
        interesting: LIST_EVENTS,
        hold: true,
        event: () => Promise.resolve(this.#changed()),
        connected: () => {
          this.#why.delete(host);
          this.#changed();
          return Promise.resolve();
        },
        down: (why, link) => this.#down(host, why, link),
        stillDown: (why, link) => this.#down(host, why, link),
        list: listedPanes,
      });
      this.#followers.set(host, follower);
      follower.start();
    }
  }

  /** `host` is down for `why`: the list says so, with when it was last reached and is tried next. */
  #down(host: string, why: string, link: HostLink | undefined): void {
    const when = link ? linkTimes(link) : null;
    const before = this.#why.get(host);
    if (before?.why === why && before.when === when) return;
    this.#why.set(host, { why, when });
    this.#changed();
  }

  /**
   * Looks at `host`'s link again now: the local skiffd said it changed (a
   * `host` event), so a host that is back (a command or `ls --all-hosts`
   * made its link again) stops reading unreachable at once, not at the
   * link's next try, up to a minute off, that the list slept until.
   */
  wake(host: string): void {
    this.#followers.get(host)?.wake();
  }

  /** The hosts as a list shows them, in projects.toml's order. */
  hosts(): HostView[] {
    return [...this.#followers.values()].map((f) => ({
      host: f.host,
      state: f.state,
      why: f.state === "down" ? this.#why.get(f.host)?.why ?? null : null,
      when: f.state === "down" ? this.#why.get(f.host)?.when ?? null : null,
      panes: f.state === "up" ? f.panes.map((p) => hostPane(f.host, p)) : [],
    }));
  }

  /** Stops following. */
  close(): void {
    for (const follower of this.#followers.values()) follower.stop();
    this.#followers.clear();
  }
}
