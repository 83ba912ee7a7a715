/**
 * A bare socket client for protocol tests: sends any bytes, reads lines.
 *
 * @module
 */

import { joinBytes } from "../../lib/platform/bytes.ts";

/** A raw connection to skiffd. */
export class RawSocket {
  readonly #conn: Deno.UnixConn;
  #buffer = "";
  readonly #decoder = new TextDecoder();

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
  }

  /** Connects to `path`. */
  static async connect(path: string): Promise<RawSocket> {
    return new RawSocket(await Deno.connect({ transport: "unix", path }));
  }

  /** Writes bytes or text. */
  async send(data: string | Uint8Array): Promise<void> {
    let bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    while (bytes.length > 0) bytes = bytes.subarray(await this.#conn.write(bytes));
  }

  /** Sends one request line and returns the parsed answer line. */
  async request(
    id: number,
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    await this.send(JSON.stringify({ id, method, params }) + "\n");
    return await this.readJson();
  }

  /** Reads the next line as JSON, failing after `timeout` ms. */
  async readJson(timeout = 5000): Promise<Record<string, unknown>> {
    return JSON.parse(await this.readLine(timeout));
  }

  /** Reads the next line, failing after `timeout` ms or at the end of the stream. */
  async readLine(timeout = 5000): Promise<string> {
    const deadline = Date.now() + timeout;
    const chunk = new Uint8Array(65536);
    for (;;) {
      const newline = this.#buffer.indexOf("\n");
      if (newline !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        return line;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("timed out reading a line");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const n = await Promise.race([
        this.#conn.read(chunk),
        new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), left)),
      ]);
      clearTimeout(timer);
      if (n === "timeout") throw new Error("timed out reading a line");
      if (n === null) throw new Error("connection closed");
      this.#buffer += this.#decoder.decode(chunk.subarray(0, n), { stream: true });
    }
  }

  /** Closes the connection. */
  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Closed already.
    }
  }
}

/**
 * A raw connection that keeps reading, so the daemon never waits on it, and
 * hands out answer lines (event lines are skipped).
 */
export class LineConn {
  readonly #conn: Deno.UnixConn;
  #buffer = new Uint8Array(0);
  #lines: string[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  /** Reads `conn` from now on. */
  constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#pump();
  }

  async #pump(): Promise<void> {
    const chunk = new Uint8Array(1 << 16);
    try {
      for (;;) {
        const n = await this.#conn.read(chunk);
        if (n === null) break;
        const joined = joinBytes([this.#buffer, chunk.subarray(0, n)]);
        let start = 0;
        for (let nl = joined.indexOf(0x0a); nl !== -1; nl = joined.indexOf(0x0a, start)) {
          this.#lines.push(new TextDecoder().decode(joined.subarray(start, nl)));
          start = nl + 1;
        }
        this.#buffer = joined.slice(start);
        this.#wake?.();
      }
    } catch {
      // Reset by the daemon: the same as an end.
    }
    this.#ended = true;
    this.#wake?.();
  }

  /** Writes all of `bytes`. */
  async write(bytes: Uint8Array): Promise<void> {
    while (bytes.length > 0) bytes = bytes.subarray(await this.#conn.write(bytes));
  }

  /** Takes `n` answer lines; fewer when the daemon ends the connection. Throws on a hang. */
  async answers(n: number, timeout = 60_000): Promise<{ lines: string[]; ended: boolean }> {
    const deadline = Date.now() + timeout;
    const out: string[] = [];
    while (out.length < n) {
      const line = this.#lines.shift();
      if (line !== undefined) {
        if (!/^\{"event":/.test(line)) out.push(line);
        continue;
      }
      if (this.#ended) return { lines: out, ended: true };
      if (Date.now() > deadline) throw new Error(`hang: ${out.length} of ${n} answers came`);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 200);
      });
    }
    return { lines: out, ended: false };
  }

  /** Closes the connection. */
  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Closed already.
    }
  }

  /** Whether the daemon ended the connection. */
  get ended(): boolean {
    return this.#ended;
  }
}
