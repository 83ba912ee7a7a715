/**
 * Following the panes of one other host for the watcher: through the link
 * the local skiffd holds, one connection subscribed to that host's events
 * (pushed by its skiffd, never polled), resumed after the last one seen
 * when the link comes back. Each event of a pane is handed on with the
 * pane's key and name as the watcher's lines use them (`gpu1:p3`,
 * `gpu1:reviewer`), and the host's panes are read again when an event may
 * change what the watcher says. When the link cannot be made, the follower
 * says so once, and once more when the host is back, never per retry.
 *
 * @module
 */

import { DaemonClient, markLinkSocket } from "../client/client.ts";
import { linkTo } from "../hosts/resolve.ts";
import { paneKey } from "../ledger/mod.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { Event } from "../protocol/events.ts";
import type { HostLink } from "../protocol/hosts.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { ListedPane } from "../protocol/workspace.ts";

/** How long the follower waits for the link before it looks again. */
const LINK_WAIT_MS = 30_000;
/** How long it waits after a failed link before it asks again (a `host` event wakes it sooner). */
const DOWN_RETRY_MS = 30_000;

/**
 * The events that change what a pane has to tell: its turn ended (or never
 * started), it waits for an approval, rang, exited or went. Whoever follows
 * a host's panes wants at least these.
 */
export const PANE_NEWS = ["turn-end", "idle-no-turn", "waiting", "bell", "exit", "gone"] as const;

/** What a {@linkcode HostFollower} tells the watcher. */
export interface HostFollowerOptions<P extends ListedPane = PaneInfo> {
  /** The host. */
  host: string;
  /** Writes one line to the watcher's log. */
  log: (line: string) => void;
  /** The events that may change what the watcher says: the host's panes are read first. */
  interesting: ReadonlySet<string>;
  /** An event of a pane on the host, with the pane's key and the name lines use. */
  event: (event: Event) => Promise<void>;
  /** The follower is connected and has listed the host's panes (again). */
  connected: () => Promise<void>;
  /** The host's link could not be made (once, until the host is back), with the link as told. */
  down: (why: string, link?: HostLink) => void;
  /**
   * Looked at the link again (after its next try, when one waits) and the host is still down:
   * a list shows when it was last reached and when the next try is.
   */
  stillDown?: (why: string, link?: HostLink) => void;
  /** Hold the link while following (the follower's own connection to skiffd keeps it). */
  hold?: boolean;
  /** Reads the host's panes through its skiffd, whenever they are read (again). */
  list: (client: DaemonClient) => Promise<P[]>;
}

/** A host's panes with every field, the process in front included (`pane.list`): the watcher's. */
export async function paneList(client: DaemonClient): Promise<PaneInfo[]> {
  return (await client.call("pane.list")).panes;
}

/**
 * How long a follower of a host that is down waits before it looks again: until a little
 * after the link's next try, when one waits, else {@linkcode DOWN_RETRY_MS} (a `host` event
 * wakes it sooner when the host is back).
 */
function downWait(link: HostLink | undefined): number {
  if (!link?.next_try) return DOWN_RETRY_MS;
  return Math.min(DOWN_RETRY_MS, Math.max(500, Date.parse(link.next_try) - Date.now() + 500));
}

/** Where a follower stands: not known yet, following, or unable to reach the host. */
export type FollowState = "unknown" | "up" | "down";

/** Hands an event of a pane on `host` on with the key and the name lines use. */
export function eventOnHost(host: string, event: Event): Event {
  if (!("pane" in event)) return event;
  return { ...event, pane: paneKey(host, event.pane), name: `${host}:${event.name}` } as Event;
}

/** Follows one host; see the module's documentation. */
export class HostFollower<P extends ListedPane = PaneInfo> {
  /** The host. */
  readonly host: string;
  /** Where it stands. */
  state: FollowState = "unknown";
  /** The host's panes as last read (their ids as on the host). */
  panes: P[] = [];
  readonly #options: HostFollowerOptions<P>;
  #stopped = false;
  #client: DaemonClient | undefined;
  #cursor: EventCursor | undefined;
  #wake: (() => void) | undefined;

  /** A follower of `options.host`; call {@linkcode HostFollower.start}. */
  constructor(options: HostFollowerOptions<P>) {
    this.host = options.host;
    this.#options = options;
  }

  /** Starts following. */
  start(): void {
    this.#loop().catch((error) =>
      this.#options.log(`host ${this.host}: following stopped: ${error?.message ?? error}`)
    );
  }

  /** Stops following. */
  stop(): void {
    this.#stopped = true;
    this.#client?.close();
    this.#wake?.();
  }

  /** Looks at the link again now (the local skiffd said the host's link changed). */
  wake(): void {
    this.#wake?.();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        if (this.#wake === done) this.#wake = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      let link: HostLink | undefined;
      let holder: DaemonClient | undefined;
      let why = "";
      try {
        ({ link, holder } = await linkTo(this.host, {
          waitMs: LINK_WAIT_MS,
          start: false,
          hold: this.#options.hold,
        }));
      } catch (error) {
        why = (error as Error).message;
      }
      if (this.#stopped) return holder?.close();
      if (link?.state === "up" && link.socket) {
        await this.#follow(link.socket);
        holder?.close();
        continue;
      }
      holder?.close();
      if (link && link.state !== "unreachable" && link.state !== "refused") {
        // Still being made: look again soon.
        await this.#sleep(1000);
        continue;
      }
      if (this.state !== "down") {
        this.state = "down";
        this.#options.down(link?.why ?? why, link);
      } else {
        this.#options.stillDown?.(link?.why ?? why, link);
      }
      await this.#sleep(downWait(link));
    }
  }

  async #list(client: DaemonClient): Promise<void> {
    this.panes = await this.#options.list(client);
  }

  async #follow(socket: string): Promise<void> {
    markLinkSocket(socket, this.host);
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect(socket, { host: this.host });
    } catch (error) {
      this.#options.log(`host ${this.host}: could not follow: ${(error as Error).message}`);
      await this.#sleep(1000);
      return;
    }
    this.#client = client;
    try {
      const subscription = await client.subscribe({ after: this.#cursor });
      this.#cursor = subscription.cursor;
      await this.#list(client);
      this.state = "up";
      await this.#options.connected();
      for await (const event of subscription) {
        this.#cursor = subscription.cursor;
        if (event.event === "resync") {
          // The host's skiffd restarted (its panes came back under their ids) or lost events.
          this.#options.log(`host ${this.host}: resync (${event.reason})`);
          await this.#list(client);
          await this.#options.connected();
          continue;
        }
        if (!("pane" in event) || !this.#options.interesting.has(event.event)) continue;
        await this.#list(client);
        await this.#options.event(eventOnHost(this.host, event));
      }
      if (!this.#stopped) {
        this.#options.log(`host ${this.host}: its events stopped; following again`);
      }
    } catch (error) {
      this.#options.log(`host ${this.host}: the link dropped: ${(error as Error).message}`);
    } finally {
      client.close();
      this.#client = undefined;
    }
  }
}
