import { assertEquals } from "../../helpers/assert.ts";
import { join } from "node:path";
import { DaemonClient } from "../../../lib/client/client.ts";
import { PROTOCOL_VERSION } from "../../../lib/version.ts";

/** A message as skiffd writes it: one JSON line. */
function line(message: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message) + "\n");
}

/**
 * A stand-in skiffd on a Unix socket: it answers the hello, then writes what
 * `answer` returns for each request line, in the pieces it says.
 */
async function fakeSkiffd(
  answer: (request: { id: number; method: string }) => Uint8Array[],
): Promise<{ path: string; close: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "skiff-lines-" });
  const path = join(dir, "skiffd.sock");
  const listener = Deno.listen({ transport: "unix", path });
  const served = (async () => {
    for await (const conn of listener) {
      const decoder = new TextDecoder();
      let text = "";
      const buffer = new Uint8Array(1 << 16);
      for (;;) {
        const n = await conn.read(buffer).catch(() => null);
        if (n === null) break;
        text += decoder.decode(buffer.subarray(0, n));
        let newline;
        while ((newline = text.indexOf("\n")) !== -1) {
          const request = JSON.parse(text.slice(0, newline));
          text = text.slice(newline + 1);
          const pieces = request.method === "hello"
            ? [
              line({
                id: request.id,
                result: { protocol: PROTOCOL_VERSION, version: "0", pid: 1 },
              }),
            ]
            : answer(request);
          for (const piece of pieces) await conn.write(piece);
        }
      }
      conn.close();
    }
  })();
  return {
    path,
    close: async () => {
      listener.close();
      await served.catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("client: a long answer in many small reads, and two answers in one read, each whole", async () => {
  const big = "é".repeat(400_000);
  const skiffd = await fakeSkiffd((request) => {
    if (request.method === "big") {
      // Pieces of an odd size: some cut a two-byte character in half.
      const bytes = line({ id: request.id, result: { text: big } });
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += 4097) pieces.push(bytes.subarray(at, at + 4097));
      return pieces;
    }
    if (request.method === "x") return [];
    // This answer and the next request's, in one write.
    const first = line({ id: request.id, result: { n: 1 } });
    const second = line({ id: request.id + 1, result: { n: 2 } });
    const both = new Uint8Array(first.length + second.length);
    both.set(first);
    both.set(second, first.length);
    return [both];
  });
  const client = await DaemonClient.connect(skiffd.path);
  try {
    const call = client.call as unknown as (method: string) => Promise<Record<string, unknown>>;
    const long = await call.call(client, "big");
    assertEquals((long.text as string).length, big.length);
    assertEquals(long.text === big, true);
    const [first, second] = await Promise.all([call.call(client, "pair"), call.call(client, "x")]);
    assertEquals([first.n, second.n], [1, 2]);
  } finally {
    client.close();
    await skiffd.close();
  }
});
