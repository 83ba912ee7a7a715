/**
 * The dashboard's view of the workspace, kept up to date: the first listing
 * (asked for before the dashboard's code loaded), a listing again whenever
 * one is needed (one at a time, and one more if asked meanwhile), skiffd's
 * numbered events folded in through reloads and restarts, and the
 * followers of `projects.toml` and of the other hosts, which start after
 * the first frame.
 *
 * @module
 */

import { foldEvent } from "../overview/fold.ts";
import { WorkspaceReader } from "../overview/workspace.ts";
import type { AskedListing } from "../overview/listing.ts";
import type { HostsFollow } from "../overview/hosts.ts";
import type { ConfigFollower } from "../overview/config_follow.ts";
import type { Event } from "../protocol/events.ts";
import type { DashState } from "./model/mod.ts";
import type { SkiffdRequests } from "./skiffd_requests.ts";

/** The parts of the dashboard loaded after its first frame (`later/mod.ts`). */
export type LaterParts = typeof import("./later/mod.ts");

/** Events after which a task's shown state may change (interrupted, gone). */
const LEDGER_EVENTS = new Set(["exit", "gone", "pane-restored", "resync"]);

/** What {@linkcode WorkspaceFollow} is given: the dashboard's parts it keeps in step. */
export interface WorkspaceFollowOptions {
  /** skiffd's socket, for the event stream. */
  socket: string;
  /** The dashboard's state: its `view` and `link` are this follower's to set. */
  state: DashState;
  /** The dashboard's requests to skiffd. */
  skiffd: SkiffdRequests;
  /** skiffd's part of the first listing, when it was asked for already. */
  first?: AskedListing;
  /** The parts loaded after the first frame, loaded once. */
  later: () => Promise<LaterParts>;
  /** Whether the dashboard ended. */
  ended: () => boolean;
  /** Ends the dashboard (skiffd went for good). */
  end: (outcome: { code: number; line: string }) => void;
  /** The panes are listed for the first time: the first full frame goes out now. */
  firstListed: () => void;
  /** A listing came: what depends on the panes follows them. */
  listed: () => void;
  /** Something shown changed: a frame soon. */
  changed: () => void;
  /** A task's shown state may have changed: the ledger is read again. */
  ledgerMayChange: () => void;
}

/** Lists the workspace and follows it for the dashboard. */
export class WorkspaceFollow {
  readonly #options: WorkspaceFollowOptions;
  readonly #reader = new WorkspaceReader();
  /** skiffd's part of the first listing, asked for before the dashboard loaded; used once. */
  #first: AskedListing | undefined;
  #tried: () => void = () => {};
  /** Resolves once a listing of every pane came (not a first screen's), or a listing failed. */
  readonly wholeTried: Promise<void>;
  #following = false;
  #listing: Promise<void> | undefined;
  #listAgain = false;
  #hosts: HostsFollow | undefined;
  #config: ConfigFollower | undefined;

  /** A follower of the workspace for one dashboard. */
  constructor(options: WorkspaceFollowOptions) {
    this.#options = options;
    this.#first = options.first;
    this.wholeTried = new Promise((resolve) => this.#tried = resolve);
  }

  /** Whether the first listing's answer came before the dashboard asked for it. */
  get firstArrived(): boolean {
    return this.#first?.arrived ?? false;
  }

  /** Lists the workspace again; one listing at a time, and one more if asked meanwhile. */
  relist(): Promise<void> {
    if (this.#listing) {
      this.#listAgain = true;
      return this.#listing;
    }
    this.#listing = (async () => {
      const { state, skiffd } = this.#options;
      do {
        this.#listAgain = false;
        try {
          const first = state.view === undefined;
          // On the open connection the requests go out at once, not after a turn of the loop.
          const client = skiffd.open() ?? await skiffd.client();
          const asked = this.#first?.answer;
          this.#first = undefined;
          state.view = await this.#reader.read(client, asked);
          if (this.#hosts) {
            this.#hosts.sync();
            state.view.hosts = this.#hosts.hosts();
          }
          if (first) {
            this.#options.firstListed();
            this.#start();
          }
          // A first screen's listing: the whole one is asked for now, and what depends on every
          // pane (the ledger's tasks shown gone, a key's move to the last row) waits for it.
          if (state.view.cut) this.#listAgain = true;
          else {
            this.#tried();
            this.#options.listed();
          }
        } catch {
          // skiffd went: the events follower lists again once it is back.
          this.#tried();
          this.#start();
        }
      } while (this.#listAgain && !this.#options.ended());
      this.#listing = undefined;
    })();
    return this.#listing;
  }

  /** Follows projects.toml (a change lists again) and the other hosts it names, each a group. */
  async followConfig(): Promise<void> {
    const { HostsFollow, ConfigFollower } = await this.#options.later();
    if (this.#options.ended()) return;
    const { state } = this.#options;
    this.#config = new ConfigFollower(() => this.relist());
    this.#hosts = new HostsFollow({
      changed: () => {
        if (!state.view || !this.#hosts) return;
        state.view.hosts = this.#hosts.hosts();
        // A remote task's shown state follows its host's panes, and whether it answers.
        this.#options.ledgerMayChange();
        this.#options.changed();
      },
    });
    if (state.view) state.view.hosts = this.#hosts.hosts();
  }

  /** Lets go of the followers. */
  close(): void {
    this.#hosts?.close();
    this.#config?.close();
  }

  /** Starts following skiffd's events, once (which loads what keys do too). */
  #start(): void {
    if (this.#following || this.#options.ended()) return;
    this.#following = true;
    this.#follow();
  }

  async #follow(): Promise<void> {
    const { followDashEvents } = await this.#options.later();
    const { state } = this.#options;
    const end = await followDashEvents(this.#options.socket, {
      ended: this.#options.ended,
      live: () => {
        state.link = "live";
        this.relist();
      },
      reconnecting: () => {
        state.link = "reconnecting";
        this.#options.changed();
      },
      event: (event) => this.#fold(event),
    });
    if (end) this.#options.end(end);
  }

  /** Brings the listing up to date with `event`. */
  #fold(event: Event): void {
    const view = this.#options.state.view;
    if (!view) return;
    if (event.event === "host") this.#hosts?.wake(event.host);
    const outcome = foldEvent(view, event);
    if (outcome === "relist") this.relist();
    else if (outcome === "changed") this.#options.changed();
    if (LEDGER_EVENTS.has(event.event)) this.#options.ledgerMayChange();
  }
}
