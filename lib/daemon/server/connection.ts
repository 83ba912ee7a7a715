/**
 * One client connection to skiffd. It starts as JSON lines; an `attach`
 * turns it into a framed byte stream, and `events.subscribe` into a stream of
 * event lines.
 *
 * @module
 */

import type { Socket } from "node:net";
import type { Event } from "../../protocol/events.ts";
import {
  LineSplitter,
  MAX_LINE_BYTES,
  ProtocolError,
  type Response,
} from "../../protocol/messages.ts";
import { type AttachEnd, encodeFrame, Frame, FrameReader } from "../../protocol/frames.ts";
import type { Pane, PaneListener } from "../panes/mod.ts";

/** Stop sending output to a terminal that has this much unsent, and redraw once it catches up. */
const ATTACH_BACKLOG_LIMIT = 8 << 20;
/** Drop an event subscriber that falls this far behind. */
const EVENT_BACKLOG_LIMIT = 4 << 20;
/** Drop a client that sends requests but stops reading their answers, once this much waits. */
const ANSWER_BACKLOG_LIMIT = 16 << 20;
/** How long an attached terminal told to leave has to answer before it is dropped. */
const AWAY_TIMEOUT_MS = 5000;

/** What an attached connection does with input, resizes and detach. */
export interface AttachHandlers {
  /** Bytes typed in the attached terminal. */
  input(data: Uint8Array): void;
  /** The attached terminal changed size. */
  resize(cols: number, rows: number): void;
}

/** A connected client. */
export class Connection {
  /** A number for logs. */
  readonly id: number;
  /** Whether `hello` succeeded. */
  greeted = false;
  /** Whether the client speaks another protocol and greeted only to upgrade skiffd. */
  upgradeOnly = false;
  readonly #socket: Socket;
  readonly #splitter = new LineSplitter();
  #mode: "rpc" | "events" | "attach" = "rpc";
  #frames: FrameReader | undefined;
  #attach: { pane: Pane; listener: PaneListener; handlers: AttachHandlers } | undefined;
  /** The attached terminal was told to leave and is expected to answer with `DETACH`. */
  #away = false;
  #unsubscribe: (() => void) | undefined;
  #closed = false;
  #onClose: (() => void)[] = [];
  #inflight = 0;
  #endWhenIdle = false;
  readonly #line: (connection: Connection, text: string) => boolean | void;
  /** Bytes that came while reading was paused, oldest first. */
  #unread: Uint8Array[] = [];
  #paused = false;

  /**
   * Wraps a socket; `line` receives each request line while in JSON-lines
   * mode, and returns `false` to read no further line until
   * {@linkcode Connection.resumeInput}.
   */
  constructor(
    id: number,
    socket: Socket,
    line: (connection: Connection, text: string) => boolean | void,
  ) {
    this.id = id;
    this.#socket = socket;
    this.#line = line;
    socket.on("data", (chunk: Uint8Array) => {
      if (this.#paused) this.#unread.push(chunk.slice());
      else this.#onBytes(chunk);
    });
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
  }

  #onBytes(chunk: Uint8Array): void {
    if (this.#mode === "attach") return this.#onFrames(chunk);
    const rest = this.#splitter.push(
      chunk,
      (text) => {
        const more = this.#line(this, text);
        if (more === false) this.#paused = true;
        return more;
      },
      () =>
        this.send({
          id: null,
          error: {
            code: ProtocolError.FRAME_TOO_LARGE,
            message: `Request is over skiffd's limit of ${MAX_LINE_BYTES >> 20} MB a line`,
          },
        }),
    );
    if (rest) this.#unread.unshift(rest);
  }

  /**
   * Reads on after a line paused the connection (its answer is out). The
   * bytes that waited are read in the connection's mode now: frames, if
   * that request was an `attach` that succeeded.
   */
  resumeInput(): void {
    this.#paused = false;
    while (!this.#paused && !this.#closed && this.#unread.length > 0) {
      this.#onBytes(this.#unread.shift()!);
    }
  }

  /** Whether the connection is gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Notes that a request started; its answer is owed. */
  requestStarted(): void {
    this.#inflight++;
  }

  /** Notes that a request was answered; ends the connection if it waited to be idle. */
  requestFinished(): void {
    this.#inflight = Math.max(0, this.#inflight - 1);
    if (this.#endWhenIdle && this.#inflight === 0 && this.#mode !== "attach") this.end();
  }

  /**
   * Ends the connection once no request is in flight (a reload): every
   * request gets its answer first, on an event stream too (a client may
   * call methods on the connection it hears events on: the watcher, `skiff
   * mcp`), whose events go on until then; its client reconnects and resumes
   * after the last event it saw. An attached terminal is told to come back
   * (an `END` frame with `returning`), and its input is still read until it
   * answers with `DETACH`: keys typed before it heard are never dropped.
   */
  endWhenIdle(): void {
    if (this.#attach) this.#sendAway({ reason: "reload", returning: true });
    else if (this.#inflight === 0) this.end();
    else this.#endWhenIdle = true;
  }

  /**
   * Tells an attached terminal to leave and come back (an upgrade): its keys
   * typed before it heard are still read. Returns whether it may type: a
   * terminal that only watches (a preview) has no keys to wait for.
   */
  sendAway(reason: string): boolean {
    if (!this.#attach) return false;
    this.#sendAway({ reason, returning: true });
    return !this.#attach.listener.watching;
  }

  /**
   * Tells the attached terminal to leave, and reads its input until its
   * `DETACH` (or for {@linkcode AWAY_TIMEOUT_MS} at most).
   */
  #sendAway(end: AttachEnd): void {
    if (this.#away || this.#closed) return;
    this.#away = true;
    this.#writeFrame(Frame.END, JSON.stringify(end));
    const timer = setTimeout(() => this.close(), AWAY_TIMEOUT_MS);
    this.onClose(() => clearTimeout(timer));
  }

  /** Runs `callback` when the connection closes. */
  onClose(callback: () => void): void {
    this.#onClose.push(callback);
  }

  /** Writes one JSON line. */
  send(message: Response | Event): void {
    if (this.#closed) return;
    if (this.#mode === "rpc" && this.#socket.writableLength > ANSWER_BACKLOG_LIMIT) {
      // Its answers would pile up in skiffd's memory for ever: only this client pays.
      this.close();
      return;
    }
    this.#socket.write(JSON.stringify(message) + "\n");
  }

  /** Turns the connection into an event stream. */
  startEvents(subscribe: (sink: (event: Event) => void) => () => void): void {
    this.#mode = "events";
    this.#unsubscribe = subscribe((event) => {
      if (this.#socket.writableLength > EVENT_BACKLOG_LIMIT) {
        this.close();
        return;
      }
      this.send(event);
    });
  }

  /**
   * Turns the connection into a framed stream attached to `pane`: sends the
   * redraw (with `scrollback` lines of history), then output as it comes.
   */
  startAttach(
    pane: Pane,
    handlers: AttachHandlers,
    options: { scrollback?: number; watch?: boolean } = {},
  ): void {
    this.#mode = "attach";
    this.#frames = new FrameReader();
    let behind = false;
    const listener: PaneListener = {
      watching: options.watch ?? false,
      output: (data) => {
        if (behind) return;
        if (this.#socket.writableLength > ATTACH_BACKLOG_LIMIT) {
          behind = true;
          this.#socket.once("drain", () => {
            behind = false;
            this.#writeFrame(Frame.OUTPUT, pane.attach(listener));
          });
          return;
        }
        this.#writeFrame(Frame.OUTPUT, data);
      },
      end: (reason, details) => {
        this.#attach = undefined;
        const end: AttachEnd = details?.returning ? { reason, returning: true } : { reason };
        this.#writeFrame(Frame.END, JSON.stringify(end));
        this.end();
      },
    };
    this.#attach = { pane, listener, handlers };
    this.#writeFrame(Frame.OUTPUT, pane.attach(listener, options.scrollback));
  }

  #writeFrame(type: number, payload: Uint8Array | string): void {
    if (!this.#closed) this.#socket.write(encodeFrame(type, payload));
  }

  #onFrames(chunk: Uint8Array): void {
    const attach = this.#attach;
    if (!attach || !this.#frames) return;
    let frames;
    try {
      frames = this.#frames.push(chunk);
    } catch {
      this.close();
      return;
    }
    for (const frame of frames) {
      if (frame.type === Frame.INPUT) {
        attach.handlers.input(frame.payload);
      } else if (frame.type === Frame.RESIZE) {
        try {
          const size = JSON.parse(new TextDecoder().decode(frame.payload));
          const cols = Number(size.cols);
          const rows = Number(size.rows);
          if (
            Number.isInteger(cols) && Number.isInteger(rows) && cols >= 2 && rows >= 2 &&
            cols <= 1000 && rows <= 1000
          ) {
            attach.handlers.resize(cols, rows);
          }
        } catch {
          // A bad resize frame is ignored; the terminal keeps its size.
        }
      } else if (frame.type === Frame.REDRAW) {
        if (!this.#away) this.#writeFrame(Frame.OUTPUT, attach.pane.attach(attach.listener));
      } else if (frame.type === Frame.DETACH) {
        attach.pane.detach(attach.listener);
        this.#attach = undefined;
        this.#writeFrame(Frame.END, JSON.stringify({ reason: "detached" }));
        this.end();
        return;
      }
    }
  }

  /** Closes the connection and undoes any attach or subscription. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#attach) this.#attach.pane.detach(this.#attach.listener);
    this.#attach = undefined;
    this.#unsubscribe?.();
    this.#socket.destroy();
    for (const callback of this.#onClose) callback();
  }

  /** Sends what is queued, then closes; a peer that does not close is dropped after a second. */
  end(): void {
    if (this.#closed) return;
    this.#socket.end();
    const timer = setTimeout(() => this.close(), 1000);
    this.onClose(() => clearTimeout(timer));
  }
}
