/**
 * The app server's connection to skiffd for one page: made when first
 * needed, and made again after skiffd dropped it (a reload). The app talks
 * to skiffd as any client does, over its socket, with the typed protocol.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon, reconnect } from "../client/connect.ts";

/** How long a request waits for skiffd to come back after a reload. */
const RECONNECT_MS = 10_000;

/** A lazily made, renewed connection to skiffd. */
export class DaemonLink {
  readonly #socket: string;
  #client: Promise<DaemonClient> | undefined;
  #closed = false;

  /** A link to the skiffd on `socket`. */
  constructor(socket: string) {
    this.#socket = socket;
  }

  /** The socket. */
  get socket(): string {
    return this.#socket;
  }

  /** A connected client; a dropped one is replaced. Never starts skiffd. */
  async client(): Promise<DaemonClient> {
    if (this.#closed) throw new Error("the page's connection is closed");
    const current = await this.#client?.catch(() => undefined);
    if (current && !current.closed) return current;
    this.#client = current
      ? reconnect(RECONNECT_MS, this.#socket).then((client) => {
        if (!client) throw new Error("skiffd went away");
        return client;
      })
      : connectDaemon({ socket: this.#socket, start: false });
    return await this.#client;
  }

  /** Closes the connection. */
  close(): void {
    this.#closed = true;
    this.#client?.then((client) => client.close(), () => {});
  }
}
