/**
 * A bare socket client for protocol tests: sends any bytes, reads lines.
 *
 * @module
 */

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
