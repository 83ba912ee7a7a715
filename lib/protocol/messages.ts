/**
 * The JSON-lines protocol between `skiff` commands and skiffd.
 *
 * Each line is one JSON object. A request is `{id, method, params}`; the
 * answer is `{id, result}` or `{id, error: {code, message}}`. A subscription
 * pushes `{event, …}` lines. The first request on a connection is `hello`,
 * which carries the protocol version.
 *
 * @module
 */

import { joinBytes } from "../platform/bytes.ts";

/** The longest line either side accepts, in bytes. */
export const MAX_LINE_BYTES = 1 << 20;

/** A request from a client. */
export interface Request {
  /** Chosen by the client; echoed in the answer. */
  id: number | string;
  /** The method name, such as `pane.list`. */
  method: string;
  /** The method's parameters. */
  params?: Record<string, unknown>;
}

/** What went wrong with a request. */
export interface ErrorBody {
  /**
   * A stable code. Codes that match an exit name (`not_found`, `usage`,
   * `conflict`, …) map to that exit code in the CLI.
   */
  code: string;
  /** One line for people. */
  message: string;
  /** Extra facts, such as the candidates of an ambiguous name. */
  details?: Record<string, unknown>;
}

/** An answer from skiffd. */
export interface Response {
  /** The request's id, or `null` when the request could not be read. */
  id: number | string | null;
  /** The result, on success. */
  result?: unknown;
  /** The error, on failure. */
  error?: ErrorBody;
}

/** Error codes of the protocol itself (besides exit names). */
export const ProtocolError = {
  BAD_FRAME: "bad_frame",
  FRAME_TOO_LARGE: "frame_too_large",
  BAD_REQUEST: "bad_request",
  UNKNOWN_METHOD: "unknown_method",
  HELLO_REQUIRED: "hello_required",
  PROTOCOL_MISMATCH: "protocol_mismatch",
} as const;

/**
 * Splits a byte stream into lines. A line longer than {@linkcode MAX_LINE_BYTES}
 * is dropped up to its newline and reported once, so one bad frame never
 * stalls the connection.
 */
export class LineSplitter {
  #parts: Uint8Array[] = [];
  #size = 0;
  #dropping = false;
  readonly #decoder = new TextDecoder();

  /**
   * Feeds bytes. Calls `line` for each complete line and `oversize` once for
   * each line that was too long. When `line` returns `false`, stops right
   * after that line and returns the bytes not read yet (a copy), for the
   * caller to feed again later or read otherwise.
   */
  push(
    chunk: Uint8Array,
    line: (text: string) => unknown,
    oversize: () => void,
  ): Uint8Array | undefined {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.#dropping) {
        this.#size += end - start;
        if (this.#size > MAX_LINE_BYTES) {
          this.#dropping = true;
          this.#parts = [];
          this.#size = 0;
          oversize();
        } else {
          this.#parts.push(chunk.subarray(start, end));
        }
      }
      if (newline === -1) {
        // Keep a copy: the caller may reuse the chunk's buffer.
        if (!this.#dropping && this.#parts.length > 0) {
          this.#parts[this.#parts.length - 1] = this.#parts[this.#parts.length - 1].slice();
        }
        return undefined;
      }
      start = newline + 1;
      if (this.#dropping) {
        this.#dropping = false;
      } else if (line(this.#take()) === false) {
        return start < chunk.length ? chunk.slice(start) : undefined;
      }
    }
    return undefined;
  }

  #take(): string {
    const text = this.#decoder.decode(joinBytes(this.#parts));
    this.#parts = [];
    this.#size = 0;
    return text;
  }
}
