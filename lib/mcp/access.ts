/**
 * The server's connections to skiffd, kept for its whole life: one to the
 * local skiffd, and one to each host a tool touched (through the link the
 * local skiffd holds, held by the kept local connection). The same
 * connection answers the tools' calls and carries skiffd's events for the
 * subscriptions (`event_feed.ts`). A connection that was lost (skiffd
 * reloaded, restarted or was upgraded; a host's link went) is made again on
 * the next call; while skiffd is coming back, that call waits for it, as an
 * attached terminal does, rather than failing or starting a second one.
 *
 * The one thing the kept connection cannot carry is a pane's output: an
 * `attach` turns its connection into a stream of frames for that pane
 * alone. Each subscribed pane's screen is followed on a connection of its
 * own ({@linkcode KeptSkiffd.stream}), one per pane however many URIs name
 * it, closed when its last subscription ends.
 *
 * @module
 */

import { DaemonClient } from "../client/client.ts";
import { connectDaemon, daemonAlive, reconnect } from "../client/connect.ts";
import { socketPath } from "../config/paths.ts";
import {
  connectHost,
  type HostConnection,
  type LinkOptions,
  type SkiffdAccess,
  type SkiffdLease,
} from "../hosts/resolve.ts";
import { EventFeed, type EventListener } from "./event_feed.ts";

/** How long a call waits for skiffd to come back after it went (a reload, a restart). */
export const RECONNECT_MS = 30_000;

/** A host's kept connection, and the local one that holds its link. */
interface HostKept {
  connection: HostConnection;
  via: DaemonClient;
}

/** Connections to skiffd and the hosts, each kept and made again when lost. */
export class KeptSkiffd implements SkiffdAccess {
  readonly #socket: string;
  #local: Promise<DaemonClient> | undefined;
  readonly #hosts = new Map<string, Promise<HostKept>>();
  readonly #feeds = new Map<string | null, EventFeed>();
  readonly #streams = new Set<DaemonClient>();
  #closed = false;
  /** How many connections to the local skiffd were kept: 1 for a server that never lost one. */
  connections = 0;
  /** How many kept connections to hosts were made, over the server's life. */
  hostConnections = 0;

  /** Connections to the skiffd on `socket` (default: the configured one). */
  constructor(socket: string = socketPath()) {
    this.#socket = socket;
  }

  /** A kept connection to `host`'s skiffd (null: the local one); `release` keeps it open. */
  async open(host: string | null, options: LinkOptions): Promise<SkiffdLease> {
    if (this.#closed) throw new Error("the server's connections are closed");
    const client = host === null
      ? await this.local(options)
      : (await this.#host(host, options)).connection.client;
    return { client, release: () => {} };
  }

  /** The local connection, made (or made again) when needed. */
  async local(options: LinkOptions = {}): Promise<DaemonClient> {
    for (;;) {
      const pending = this.#local;
      const current = await pending?.catch(() => undefined);
      if (current && !current.closed) return current;
      // Another caller began a new one while this one looked: that one is the kept one.
      if (this.#local !== pending) continue;
      const made = this.#connectLocal(options);
      this.#local = made;
      try {
        const client = await made;
        this.connections++;
        return client;
      } catch (error) {
        if (this.#local === made) this.#local = undefined;
        throw error;
      }
    }
  }

  async #connectLocal(options: LinkOptions): Promise<DaemonClient> {
    // A skiffd still holding its lock is there or coming back (a reload, a restart): wait for it.
    if (await daemonAlive(this.#socket)) {
      const again = await reconnect(RECONNECT_MS, this.#socket);
      if (again) return again;
    }
    return await connectDaemon({ socket: this.#socket, start: options.start });
  }

  async #host(host: string, options: LinkOptions): Promise<HostKept> {
    for (;;) {
      const pending = this.#hosts.get(host);
      const current = await pending?.catch(() => undefined);
      const { client } = current?.connection ?? {};
      if (current && client && !client.closed && !current.via.closed) return current;
      if (this.#hosts.get(host) !== pending) continue;
      client?.close();
      const made = (async () => {
        // The link is held by the kept local connection, for as long as that one lasts.
        const via = await this.local({ start: options.start });
        const connection = await connectHost(host, {
          start: options.start,
          waitMs: options.waitMs,
          hold: true,
          via,
        });
        return { connection, via };
      })();
      this.#hosts.set(host, made);
      try {
        const kept = await made;
        this.hostConnections++;
        return kept;
      } catch (error) {
        if (this.#hosts.get(host) === made) this.#hosts.delete(host);
        throw error;
      }
    }
  }

  /**
   * Tells `listener` the events of `host`'s skiffd (null: the local one), as
   * they come on its kept connection, through reconnections; the function
   * returned stops that. skiffd is never started for this.
   */
  follow(host: string | null, listener: EventListener): () => void {
    let feed = this.#feeds.get(host);
    if (!feed) {
      feed = new EventFeed(async () =>
        host === null
          ? await this.local({ start: false })
          : (await this.#host(host, { start: false })).connection.client
      );
      this.#feeds.set(host, feed);
    }
    return feed.listen(listener);
  }

  /**
   * A new connection of its own to `host`'s skiffd (null: the local one,
   * waited for while it comes back, never started), for an attach that
   * follows a pane's output; closed by the caller, and with the others.
   */
  async stream(host: string | null): Promise<DaemonClient> {
    if (this.#closed) throw new Error("the server's connections are closed");
    let client: DaemonClient;
    if (host === null) {
      client = await this.#connectLocal({ start: false });
    } else {
      const { connection } = await this.#host(host, { start: false });
      client = await DaemonClient.connect(connection.link.socket!, { host });
    }
    if (this.#closed) {
      client.close();
      throw new Error("the server's connections are closed");
    }
    for (const old of this.#streams) if (old.closed) this.#streams.delete(old);
    this.#streams.add(client);
    return client;
  }

  /** Closes every connection. */
  close(): void {
    this.#closed = true;
    for (const feed of this.#feeds.values()) feed.close();
    for (const client of this.#streams) client.close();
    this.#local?.then((client) => client.close(), () => {});
    for (const made of this.#hosts.values()) {
      made.then((kept) => kept.connection.client.close(), () => {});
    }
  }
}
