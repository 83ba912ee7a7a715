/**
 * The server's connections to skiffd, kept for its whole life: one to the
 * local skiffd, and one to each host a tool touched (through the link the
 * local skiffd holds, held open). A connection that was lost (skiffd
 * reloaded, restarted or was upgraded; a host's link went) is made again on
 * the next call; while skiffd is coming back, that call waits for it, as an
 * attached terminal does, rather than failing or starting a second one.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon, daemonAlive, reconnect } from "../client/connect.ts";
import { socketPath } from "../config/paths.ts";
import {
  connectHost,
  type HostConnection,
  type LinkOptions,
  type SkiffdAccess,
  type SkiffdLease,
} from "../hosts/resolve.ts";

/** How long a call waits for skiffd to come back after it went (a reload, a restart). */
export const RECONNECT_MS = 30_000;

/** Connections to skiffd and the hosts, each kept and made again when lost. */
export class KeptSkiffd implements SkiffdAccess {
  readonly #socket: string;
  #local: Promise<DaemonClient> | undefined;
  readonly #hosts = new Map<string, Promise<HostConnection>>();
  #closed = false;
  /** How many connections to the local skiffd were made: 1 for a server that never lost one. */
  connections = 0;

  /** Connections to the skiffd on `socket` (default: the configured one). */
  constructor(socket: string = socketPath()) {
    this.#socket = socket;
  }

  /** A kept connection to `host`'s skiffd (null: the local one); `release` keeps it open. */
  async open(host: string | null, options: LinkOptions): Promise<SkiffdLease> {
    if (this.#closed) throw new Error("the server's connections are closed");
    const client = host === null ? await this.local(options) : await this.#host(host, options);
    return { client, release: () => {} };
  }

  /** The local connection, made (or made again) when needed. */
  async local(options: LinkOptions = {}): Promise<DaemonClient> {
    const current = await this.#local?.catch(() => undefined);
    if (current && !current.closed) return current;
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

  async #connectLocal(options: LinkOptions): Promise<DaemonClient> {
    // A skiffd still holding its lock is there or coming back (a reload, a restart): wait for it.
    if (await daemonAlive(this.#socket)) {
      const again = await reconnect(RECONNECT_MS, this.#socket);
      if (again) return again;
    }
    return await connectDaemon({ socket: this.#socket, start: options.start });
  }

  async #host(host: string, options: LinkOptions): Promise<DaemonClient> {
    const kept = this.#hosts.get(host);
    const current = await kept?.catch(() => undefined);
    if (current && !current.client.closed && !current.holder?.closed) return current.client;
    current?.client.close();
    current?.holder?.close();
    const made = connectHost(host, { start: options.start, waitMs: options.waitMs, hold: true });
    this.#hosts.set(host, made);
    try {
      return (await made).client;
    } catch (error) {
      if (this.#hosts.get(host) === made) this.#hosts.delete(host);
      throw error;
    }
  }

  /** Closes every connection. */
  close(): void {
    this.#closed = true;
    this.#local?.then((client) => client.close(), () => {});
    for (const made of this.#hosts.values()) {
      made.then((c) => {
        c.client.close();
        c.holder?.close();
      }, () => {});
    }
  }
}
