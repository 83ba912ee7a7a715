/**
 * The resources of `skiff mcp`: each pane's screen as
 * `skiff://pane/{pane}/screen` (a template, and listed per pane) and the
 * ledger as `skiff://ledger`. A subscribed client hears
 * `notifications/resources/updated` when a pane's screen changes (skiffd
 * streams the pane's output: no polling), at most
 * {@linkcode UPDATES_PER_SECOND} a second per pane, and when the pane's
 * state changes (the events of the skiffd the pane is on, this machine's or
 * a host's, heard on the server's kept connection to it); the ledger's, when
 * its file changes (the system's file events) or a pane of its tasks exits
 * or goes.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { Event } from "../protocol/events.ts";
import { paneRefText, parsePaneRef } from "../hosts/resolve.ts";
import { capturePane, ledgerList, listPanes } from "../ops/mod.ts";
import { ledgerStamp } from "../ledger/mod.ts";
import { ledgerPlace } from "../skipper/ledger.ts";
import { type PathWatch, watchPath } from "../platform/path_watch.ts";
import type { KeptSkiffd } from "./access.ts";
import { ScreenFollow } from "./screen_follow.ts";
import { Throttle } from "./throttle.ts";
import { paneRef, type ToolContext } from "./tools/mod.ts";

/** The most updates a second a client hears about one pane. */
export const UPDATES_PER_SECOND = 4;

/** The ledger's URI. */
export const LEDGER_URI = "skiff://ledger";

/** The template of a pane's screen's URI. */
export const SCREEN_TEMPLATE = "skiff://pane/{pane}/screen";

/** The URI of pane `pane`'s screen (`ID` or `HOST:ID`). */
export function screenUri(pane: string): string {
  return `skiff://pane/${encodeURIComponent(pane)}/screen`;
}

/** The pane a screen URI names, or undefined for another URI. */
export function paneOfUri(uri: string): string | undefined {
  const match = /^skiff:\/\/pane\/([^/]+)\/screen$/.exec(uri);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** A resource as `resources/list` gives it. */
export interface ListedResource {
  /** Its URI. */
  uri: string;
  /** Its name. */
  name: string;
  /** What it is. */
  description: string;
  /** Its type. */
  mimeType: string;
}

/** The events that change what a pane's state is. */
const STATE_EVENTS = new Set<Event["event"]>([
  "state",
  "agent-start",
  "turn-start",
  "turn-end",
  "idle-no-turn",
  "waiting",
  "exit",
  "gone",
  "seen",
  "pane-renamed",
]);

/** The events that change a ledger task's shown state. */
const LEDGER_EVENTS = new Set<Event["event"]>(["exit", "gone", "pane-restored", "pane-created"]);

/** A followed pane: its screen's connection, its throttle, and the URIs it was subscribed as. */
interface FollowedPane {
  /** Its host, or null for this machine's. */
  host: string | null;
  /** Its output, followed. */
  follow: ScreenFollow;
  /** At most {@linkcode UPDATES_PER_SECOND} notices a second, for every URI of the pane. */
  throttle: Throttle;
  /** The URIs subscribed that name it (`p3`, `worker`, `gpu1:p2`, …). */
  uris: Set<string>;
}

/** The resources, and the subscriptions to them. */
export class Resources {
  readonly #context: ToolContext;
  readonly #access: KeptSkiffd;
  readonly #updated: (uri: string) => void;
  /** The followed panes, by `HOST:ID` (or `ID`): events name a pane by its id on its host. */
  readonly #panes = new Map<string, FollowedPane>();
  /** The pane each subscribed screen URI names, as a key of `#panes`. */
  readonly #uris = new Map<string, string>();
  #ledger: { watch: PathWatch; stamp: string; path: string } | undefined;
  /** The skiffds whose events are followed (null: this machine's), and how to stop each. */
  readonly #feeds = new Map<string | null, () => void>();

  /**
   * The resources for `context`, whose connections are `access`'s;
   * `updated` sends a client the notice for a URI.
   */
  constructor(context: ToolContext, access: KeptSkiffd, updated: (uri: string) => void) {
    this.#context = context;
    this.#access = access;
    this.#updated = updated;
  }

  /** Each pane's screen (within the scope), and the ledger. */
  async list(): Promise<ListedResource[]> {
    const host = this.#context.host;
    const { panes } = await listPanes({
      project: this.#context.project,
      allHosts: host !== undefined,
      access: this.#context.access,
    });
    const screens = panes.filter((p) => host === undefined || p.host === host).map((p) => {
      const id = p.host === null ? p.id : `${p.host}:${p.id}`;
      return {
        uri: screenUri(id),
        name: `${p.name} (${id}) screen`,
        description: `What pane ${p.name} shows now: ${p.agent ?? "no agent"}, ${p.state}`,
        mimeType: "text/plain",
      };
    });
    return [...screens, {
      uri: LEDGER_URI,
      name: "ledger",
      description: "The Skiff agent's ledger: open plans and tasks, as 'skiff ledger ls --json'",
      mimeType: "application/json",
    }];
  }

  /** Reads `uri`: a pane's screen as text, or the ledger as JSON. */
  async read(uri: string): Promise<{ uri: string; mimeType: string; text: string }[]> {
    if (uri === LEDGER_URI) {
      using ledger = this.#context.ledger();
      const list = await ledgerList(ledger, {}, {
        project: this.#context.project,
        access: this.#context.access,
      });
      return [{ uri, mimeType: "application/json", text: JSON.stringify(list) }];
    }
    const pane = this.#pane(uri);
    const capture = await capturePane(paneRef(pane, this.#context), {
      project: this.#context.project,
      access: this.#context.access,
    });
    return [{ uri, mimeType: "text/plain", text: capture.text }];
  }

  #pane(uri: string): string {
    const pane = paneOfUri(uri);
    if (pane === undefined) {
      throw new SkiffError(`No resource '${uri}': use ${SCREEN_TEMPLATE} or ${LEDGER_URI}`, {
        exit: "NOT_FOUND",
      });
    }
    return pane;
  }

  /** Subscribes to `uri`'s changes. A pane's is checked first: it must be there, in the scope. */
  async subscribe(uri: string): Promise<void> {
    if (uri === LEDGER_URI) return this.#followLedger();
    const ref = paneRef(this.#pane(uri), this.#context);
    if (this.#uris.has(uri)) return;
    // The pane must be there (and in scope) now: a subscription to nothing is refused.
    const found = await capturePane(ref, {
      project: this.#context.project,
      access: this.#context.access,
    });
    if (this.#uris.has(uri)) return;
    const host = parsePaneRef(ref).host;
    const key = paneRefText(host, found.pane);
    this.#uris.set(uri, key);
    const followed = this.#panes.get(key);
    if (followed) {
      followed.uris.add(uri);
      return;
    }
    const uris = new Set([uri]);
    const throttle = new Throttle(() => {
      for (const each of uris) this.#updated(each);
    }, 1000 / UPDATES_PER_SECOND);
    const follow = new ScreenFollow(
      found.pane,
      () => this.#access.stream(host),
      () => throttle.poke(),
    );
    this.#panes.set(key, { host, follow, throttle, uris });
    this.#syncFeeds();
  }

  /** Ends the subscription to `uri`. */
  unsubscribe(uri: string): void {
    if (uri === LEDGER_URI) {
      this.#ledger?.watch.close();
      this.#ledger = undefined;
      return this.#syncFeeds();
    }
    const key = this.#uris.get(uri);
    if (key === undefined) return;
    this.#uris.delete(uri);
    const followed = this.#panes.get(key)!;
    followed.uris.delete(uri);
    if (followed.uris.size > 0) return;
    followed.follow.close();
    followed.throttle.close();
    this.#panes.delete(key);
    this.#syncFeeds();
  }

  #followLedger(): void {
    if (this.#ledger) return;
    const path = ledgerPlace().path;
    const ledger = {
      path,
      stamp: ledgerStamp(path),
      watch: watchPath(path, {
        changed: () => {
          const stamp = ledgerStamp(path);
          // A reader's touch changes no stamp: only a write is told.
          if (stamp === ledger.stamp) return;
          ledger.stamp = stamp;
          this.#updated(LEDGER_URI);
        },
      }),
    };
    this.#ledger = ledger;
    this.#syncFeeds();
  }

  /**
   * Follows the events of each skiffd something subscribed is on (this
   * machine's for the ledger and its panes, each host's for its panes), and
   * no other.
   */
  #syncFeeds(): void {
    const wanted = new Set<string | null>([...this.#panes.values()].map((p) => p.host));
    if (this.#ledger) wanted.add(null);
    for (const [host, stop] of this.#feeds) {
      if (wanted.has(host)) continue;
      stop();
      this.#feeds.delete(host);
    }
    for (const host of wanted) {
      if (this.#feeds.has(host)) continue;
      this.#feeds.set(host, this.#access.follow(host, (event) => this.#onEvent(host, event)));
    }
  }

  #onEvent(host: string | null, event: Event): void {
    if (event.event === "resync") {
      // Events were missed (skiffd restarted, or fell behind): every pane there may have changed.
      for (const followed of this.#panes.values()) {
        if (followed.host === host) followed.throttle.poke();
      }
      if (host === null && this.#ledger) this.#updated(LEDGER_URI);
      return;
    }
    if (!("pane" in event)) return;
    if (STATE_EVENTS.has(event.event)) {
      this.#panes.get(paneRefText(host, event.pane))?.throttle.poke();
    }
    if (host === null && this.#ledger && LEDGER_EVENTS.has(event.event)) {
      this.#updated(LEDGER_URI);
    }
  }

  /** Ends every subscription. */
  close(): void {
    for (const uri of [...this.#uris.keys()]) this.unsubscribe(uri);
    this.unsubscribe(LEDGER_URI);
    for (const stop of this.#feeds.values()) stop();
    this.#feeds.clear();
  }
}
