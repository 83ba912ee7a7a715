/**
 * A connection to skiffd: requests and answers as JSON lines, event streams,
 * and the framed byte stream of an attached terminal.
 *
 * Uses `Deno.connect` rather than `node:net`, because every CLI call pays for
 * whatever this module loads.
 *
 * @module
 */

import { Exit, type ExitName, SkiffError } from "../errors.ts";
import { joinBytes } from "../platform/bytes.ts";
import type { Event } from "../protocol/events.ts";
import { MAX_LINE_BYTES, type Response } from "../protocol/messages.ts";
import { byteSize } from "../words.ts";
import type { EventCursor, HelloResult } from "../protocol/daemon.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import { PROTOCOL_VERSION } from "../version.ts";
import { noteDaemon, protocolMismatch, unknownMethod } from "./skew.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Options of {@linkcode DaemonClient.call}. */
export interface CallOptions {
  /** Turn the connection into a byte stream once the answer comes (for `attach`). */
  raw?: boolean;
}

/** The arguments of a call to method `M`: params may be left out when none are required. */
export type CallArgs<M extends MethodName> = Record<PropertyKey, never> extends ParamsOf<M>
  ? [params?: ParamsOf<M>, options?: CallOptions]
  : [params: ParamsOf<M>, options?: CallOptions];

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  raw: boolean;
}

/** The local sockets of links to other hosts this process uses, with each host's name. */
const linkSockets = new Map<string, string>();

/**
 * Notes that `path` is the local end of the link to `host` (see
 * `lib/hosts`): a connection to it reaches that host's skiffd, whose version
 * is the host's business rather than a local hint, and no skiffd is ever
 * started on it.
 */
export function markLinkSocket(path: string, host: string): void {
  linkSockets.set(path, host);
}

/** The host whose link `path` is the local end of, if it is one. */
export function linkSocketHost(path: string): string | undefined {
  return linkSockets.get(path);
}

/** Turns a protocol error into a {@linkcode SkiffError} with the matching exit code. */
export function errorFromResponse(error: NonNullable<Response["error"]>): SkiffError {
  if (error.code === "protocol_mismatch") return protocolMismatch(error.message, error.details);
  if (error.code === "unknown_method") return unknownMethod(error.message);
  const name = error.code.toUpperCase();
  const exit: ExitName = name in Exit
    ? name as ExitName
    : error.code === "frame_too_large"
    ? "USAGE"
    : error.code === "forbidden"
    ? "DAEMON"
    : "ERROR";
  return new SkiffError(error.message, { exit, details: error.details });
}

/** The connection to skiffd ended before an answer came. */
export class ConnectionClosed extends SkiffError {
  /** Makes the error; `reason` is the socket's error, if any. */
  constructor(reason?: string) {
    super(`skiffd closed the connection${reason ? `: ${reason}` : ""}`, { exit: "DAEMON" });
    this.name = "ConnectionClosed";
  }
}

/** A stream of events from skiffd; see {@linkcode DaemonClient.subscribe}. */
export class EventSubscription implements AsyncIterable<Event> {
  /** The place of the last event seen, or where the stream stood when it began. */
  cursor: EventCursor;
  readonly #next: () => Promise<Event | null>;
  #done = false;

  /** Wraps a source of events; `null` from it ends the stream. */
  constructor(cursor: EventCursor, next: () => Promise<Event | null>) {
    this.cursor = cursor;
    this.#next = next;
  }

  /** The next event, or `done` once the connection has ended. */
  async next(): Promise<IteratorResult<Event, undefined>> {
    if (this.#done) return { done: true, value: undefined };
    const event = await this.#next();
    if (event === null) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    this.cursor = { run: event.run, seq: event.seq };
    return { done: false, value: event };
  }

  /** Iterates the events until the connection ends. */
  [Symbol.asyncIterator](): AsyncIterator<Event, undefined> {
    return { next: () => this.next() };
  }
}

/**
 * Asks a first request on a new connection right behind its hello, not a
 * round trip later (skiffd busy with floods takes milliseconds a turn).
 * skiffd answers in order and refuses every request of a connection whose
 * hello it refused, so nothing is done for a client it would not serve; the
 * request's promise then rejects, and so it does when the connection is
 * dropped (a skiffd that is stopping), so its caller must handle that.
 */
export type ConnectAhead = (client: DaemonClient) => void;

/** An open connection to skiffd. */
export class DaemonClient {
  readonly #conn: Deno.UnixConn;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** The start of a line whose end has not come yet, in the pieces that came. */
  #partial: Uint8Array[] = [];
  #raw = false;
  #rawSink: ((data: Uint8Array | null) => void) | undefined;
  #rawBacklog: Uint8Array[] = [];
  #eventSink: ((event: Event | null) => void) | undefined;
  #closed = false;
  #closedReason: string | undefined;
  /** The daemon's version and pid, from `hello`. */
  server: HelloResult | undefined;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#pump();
  }

  /**
   * Connects to the socket at `path` and says hello. Throws if nothing
   * listens. With `upgrade`, a skiffd of another protocol greets it too
   * (only `daemon.upgrade` may follow), and tells how its last upgrade went.
   * With `host`, the socket is a link's: it reaches that host's skiffd,
   * whose version is the host's business, not a local hint. `ahead` is
   * called with the client right after the hello went out, to ask its first
   * request in the same round trip (see {@linkcode ConnectAhead}).
   */
  static async connect(
    path: string,
    options: { upgrade?: boolean; host?: string; ahead?: ConnectAhead } = {},
  ): Promise<DaemonClient> {
    const conn = await Deno.connect({ transport: "unix", path });
    const client = new DaemonClient(conn);
    try {
      const hello = client.call("hello", {
        protocol: PROTOCOL_VERSION,
        client: "skiff",
        ...(options.upgrade ? { upgrade: true } : {}),
      });
      options.ahead?.(client);
      client.server = await hello;
      if (!options.upgrade && options.host === undefined && !linkSockets.has(path)) {
        noteDaemon(client.server);
      }
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  async #pump(): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.#conn.read(chunk);
        if (n === null) break;
        this.#feed(chunk.subarray(0, n));
      }
    } catch (error) {
      this.#closedReason = (error as Error).message;
    }
    this.#finish();
  }

  #feed(bytes: Uint8Array): void {
    if (this.#raw) return this.#deliverRaw(bytes.slice());
    // A long answer (a listing of a thousand panes) comes in many reads: each read is searched
    // once, and the pieces are joined only when its line ends, never again at every read.
    let start = 0;
    while (!this.#raw) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline === -1) break;
      const end = bytes.subarray(start, newline);
      start = newline + 1;
      if (this.#partial.length === 0) this.#onLine(decoder.decode(end));
      else {
        const line = joinBytes([...this.#partial, end]);
        this.#partial = [];
        this.#onLine(decoder.decode(line));
      }
    }
    if (start >= bytes.length) return;
    // The read's buffer is reused: what stays is copied.
    if (this.#raw) this.#deliverRaw(bytes.slice(start));
    else this.#partial.push(bytes.slice(start));
  }

  #deliverRaw(data: Uint8Array): void {
    if (this.#rawSink) this.#rawSink(data);
    else this.#rawBacklog.push(data);
  }

  #onLine(line: string): void {
    if (line.trim() === "") return;
    let message: Response & { event?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof message.event === "string") {
      this.#eventSink?.(message as unknown as Event);
      return;
    }
    const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (!pending) {
      if (message.error && message.id === null) {
        // An error about the connection itself, such as a refused peer.
        for (const p of this.#pending.values()) p.reject(errorFromResponse(message.error));
        this.#pending.clear();
      }
      return;
    }
    this.#pending.delete(message.id as number);
    if (message.error) {
      pending.reject(errorFromResponse(message.error));
    } else {
      if (pending.raw) this.#raw = true;
      pending.resolve(message.result);
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    const error = new ConnectionClosed(this.#closedReason);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#eventSink?.(null);
    if (this.#rawSink) this.#rawSink(null);
    else this.#rawBacklog.push(new Uint8Array(0));
    try {
      this.#conn.close();
    } catch {
      // Closed already.
    }
  }

  /** Whether the connection has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends a request and returns its result; throws a {@linkcode SkiffError}
   * on an error answer. The method's params and result are typed by the
   * protocol (`lib/protocol/`).
   */
  call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<ResultOf<M>> {
    const [params = {}, options = {}] = args as [ParamsOf<M>?, CallOptions?];
    if (this.#closed) {
      return Promise.reject(new ConnectionClosed());
    }
    const id = this.#nextId++;
    const line = encoder.encode(JSON.stringify({ id, method, params }) + "\n");
    if (line.length > MAX_LINE_BYTES) {
      // skiffd would skip the line and answer with no id: refuse it here, never sent.
      return Promise.reject(
        new SkiffError(
          `The request is ${byteSize(line.length)}, over skiffd's limit of ${
            byteSize(MAX_LINE_BYTES)
          } a line`,
          { exit: "USAGE", details: { bytes: line.length, limit: MAX_LINE_BYTES } },
        ),
      );
    }
    const promise = new Promise<ResultOf<M>>((resolve, reject) => {
      this.#pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject,
        raw: !!options.raw,
      });
    });
    this.write(line).catch(() => {});
    return promise;
  }

  /** Writes raw bytes to the socket. */
  async write(data: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < data.length) offset += await this.#conn.write(data.subarray(offset));
  }

  /**
   * Subscribes to events. Resolves once skiffd has confirmed the
   * subscription, so nothing that happens afterwards is missed. With `after`,
   * the events since that place come first (or a `resync` event when skiffd
   * no longer knows them). The subscription yields events until the
   * connection ends, and its `cursor` always names the last one seen.
   */
  async subscribe(options: { after?: EventCursor } = {}): Promise<EventSubscription> {
    const queue: (Event | null)[] = [];
    let wake: (() => void) | undefined;
    this.#eventSink = (event) => {
      queue.push(event);
      wake?.();
    };
    const reply = await this.call(
      "events.subscribe",
      options.after ? { after: options.after } : {},
    );
    const next = async (): Promise<Event | null> => {
      while (queue.length === 0) {
        await new Promise<void>((resolve) => wake = resolve);
        wake = undefined;
      }
      return queue.shift()!;
    };
    return new EventSubscription({ run: reply.run, seq: reply.seq }, next);
  }

  /**
   * Receives the bytes that follow a `raw` call's answer; `null` marks the end.
   * Bytes that arrived before this was set are delivered first.
   */
  onRaw(sink: (data: Uint8Array | null) => void): void {
    this.#rawSink = sink;
    for (const data of this.#rawBacklog) sink(data.length === 0 && this.#closed ? null : data);
    this.#rawBacklog = [];
  }

  /** Closes the connection. */
  close(): void {
    if (this.#closed) return;
    try {
      this.#conn.close();
    } catch {
      // Closed already.
    }
  }
}
