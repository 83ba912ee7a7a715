/**
 * The resources of `skiff mcp`: each pane's screen as
 * `skiff://pane/{pane}/screen` (a template, and listed per pane) and the
 * ledger as `skiff://ledger`. A subscribed client hears
 * `notifications/resources/updated` when a pane's screen changes (skiffd
 * streams the pane's output: no polling), at most
 * {@linkcode UPDATES_PER_SECOND} a second per pane, and when the pane's
 * state changes (skiffd's events); the ledger's, when its file changes
 * (the system's file events) or a pane of its tasks exits or goes.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { followEvents } from "../client/follow.ts";
import type { Event } from "../protocol/events.ts";
import { capturePane, ledgerList, listPanes } from "../ops/mod.ts";
import { ledgerStamp } from "../ledger/mod.ts";
import { ledgerPlace } from "../skipper/ledger.ts";
import { type PathWatch, watchPath } from "../platform/path_watch.ts";
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

/** The resources, and the subscriptions to them. */
export class Resources {
  readonly #context: ToolContext;
  readonly #updated: (uri: string) => void;
  readonly #screens = new Map<string, { follow: ScreenFollow; throttle: Throttle }>();
  /** The URI each followed local pane was subscribed as, by its id (events name the id). */
  readonly #byId = new Map<string, string>();
  #ledger: { watch: PathWatch; stamp: string; path: string } | undefined;
  #events: AsyncGenerator<Event> | undefined;

  /** The resources for `context`; `updated` sends a client the notice for a URI. */
  constructor(context: ToolContext, updated: (uri: string) => void) {
    this.#context = context;
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
    const pane = paneRef(this.#pane(uri), this.#context);
    if (this.#screens.has(uri)) return;
    // The pane must be there (and in scope) now: a subscription to nothing is refused.
    const found = await capturePane(pane, {
      project: this.#context.project,
      access: this.#context.access,
    });
    if (!pane.includes(":")) this.#byId.set(found.pane, uri);
    const throttle = new Throttle(() => this.#updated(uri), 1000 / UPDATES_PER_SECOND);
    this.#screens.set(uri, { follow: new ScreenFollow(pane, () => throttle.poke()), throttle });
    this.#followEvents();
  }

  /** Ends the subscription to `uri`. */
  unsubscribe(uri: string): void {
    if (uri === LEDGER_URI) {
      this.#ledger?.watch.close();
      this.#ledger = undefined;
      return;
    }
    const screen = this.#screens.get(uri);
    screen?.follow.close();
    screen?.throttle.close();
    this.#screens.delete(uri);
    for (const [id, subscribed] of this.#byId) if (subscribed === uri) this.#byId.delete(id);
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
    this.#followEvents();
  }

  /** skiffd's events, followed while anything is subscribed, through reloads and restarts. */
  #followEvents(): void {
    if (this.#events) return;
    const events = followEvents({ reconnectMs: 30_000 });
    this.#events = events;
    (async () => {
      try {
        for await (const event of events) this.#onEvent(event);
      } catch {
        // skiffd went and did not come back: the next subscription follows it again.
      }
      if (this.#events === events) this.#events = undefined;
    })();
  }

  #onEvent(event: Event): void {
    if (!("pane" in event)) return;
    if (STATE_EVENTS.has(event.event)) {
      // A local pane's screen URI; one on another host hears of its state through its output.
      const uri = this.#byId.get(event.pane);
      if (uri !== undefined) this.#screens.get(uri)?.throttle.poke();
    }
    if (this.#ledger && LEDGER_EVENTS.has(event.event)) this.#updated(LEDGER_URI);
  }

  /** Ends every subscription. */
  close(): void {
    for (const uri of [...this.#screens.keys()]) this.unsubscribe(uri);
    this.unsubscribe(LEDGER_URI);
    this.#events?.return(undefined);
    this.#events = undefined;
  }
}
