/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The page's control socket: typed requests to the app server (the methods
 * of `lib/app/api.ts`), skiffd's events, and word that a file the page
 * follows changed. It connects again on its own when the socket drops
 * (skiffd restarted), and says when it is live again.
 *
 * @module
 */

import type { ApiMethodName, ApiMethods, Followed } from "../lib/app/api.ts";
import type { Event } from "../lib/protocol/events.ts";

/** An error answer from the app server. */
export class ApiError extends Error {
  /** The exit code's name, in lower case (`usage`, `conflict`, …). */
  readonly code: string;
  /** The error's JSON fields (a landing's `reason`, `conflicts`, `check`, …), if any. */
  readonly details: Record<string, unknown>;

  /** Makes the error. */
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** How the socket stands. */
export type LinkState = "connecting" | "live" | "lost";

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The page's connection to the app server. */
export class Connection {
  #ws: WebSocket | undefined;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #delay = 250;
  #opened: Promise<void> = new Promise(() => {});
  #markOpen: () => void = () => {};
  /** Hears every event of skiffd. */
  onEvent: (event: Event) => void = () => {};
  /** Hears that a file the page follows changed (the settings, or the ledger): read it again. */
  onChanged: (what: Followed) => void = () => {};
  /** Hears that the event feed is live (again): list what is there now. */
  onLive: () => void = () => {};
  /** Hears how the socket stands. */
  onState: (state: LinkState, why?: string) => void = () => {};

  /** Opens the socket. */
  open(): void {
    this.onState("connecting");
    if (this.#ws === undefined || this.#ws.readyState !== WebSocket.OPEN) {
      this.#opened = new Promise((resolve) => this.#markOpen = resolve);
    }
    const ws = new WebSocket(
      `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`,
    );
    this.#ws = ws;
    ws.onmessage = (message) => this.#receive(String(message.data));
    ws.onopen = () => {
      this.#delay = 250;
      this.#markOpen();
    };
    ws.onclose = (close) => {
      for (const pending of this.#pending.values()) {
        pending.reject(new ApiError("daemon", "The connection to skiffd was lost"));
      }
      this.#pending.clear();
      this.onState("lost", close.reason || undefined);
      setTimeout(() => this.open(), this.#delay);
      this.#delay = Math.min(this.#delay * 2, 5000);
    };
  }

  #receive(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.subscribed === true) {
      this.onState("live");
      this.onLive();
      return;
    }
    if (typeof message.event === "string") {
      this.onEvent(message as unknown as Event);
      return;
    }
    if (
      message.changed === "settings" || message.changed === "ledger" || message.changed === "hosts"
    ) {
      this.onChanged(message.changed);
      return;
    }
    if (typeof message.id !== "number") return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    const error = message.error as
      | { code: string; message: string; details?: Record<string, unknown> }
      | undefined;
    if (error) pending.reject(new ApiError(error.code, error.message, error.details));
    else pending.resolve(message.result);
  }

  /** Asks the app server; rejects with an {@linkcode ApiError}. */
  async call<M extends ApiMethodName>(
    method: M,
    params: ApiMethods[M]["params"],
  ): Promise<ApiMethods[M]["result"]> {
    // A request made while the socket (re)connects waits for it to open.
    if (this.#ws?.readyState !== WebSocket.OPEN) await this.#opened;
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      throw new ApiError("daemon", "Not connected to skiffd");
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  }
}
