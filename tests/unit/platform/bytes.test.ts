import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  decodeBase64,
  encodeBase64,
  joinBytes,
  writeChunksSync,
} from "../../../lib/platform/bytes.ts";

/** A stream that takes at most `most` bytes a write, and records every write. */
function shortStream(most: number): { writes: Uint8Array[]; writeSync(p: Uint8Array): number } {
  const writes: Uint8Array[] = [];
  return {
    writes,
    writeSync(p: Uint8Array): number {
      const taken = p.slice(0, most);
      writes.push(taken);
      return taken.length;
    },
  };
}

Deno.test("writeChunksSync: every byte in order, small chunks gathered, short writes retried", () => {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < 3000; i++) chunks.push(new Uint8Array(1 + (i % 7)).fill(i % 251));
  chunks.push(new Uint8Array(200_000).map((_, i) => i % 253));
  for (let i = 0; i < 10; i++) chunks.push(new Uint8Array([i]));
  const stream = shortStream(50_000);
  writeChunksSync(stream, chunks);
  assertEquals(joinBytes(stream.writes), joinBytes(chunks));
  assert(stream.writes.length < 20, `${stream.writes.length} writes for ${chunks.length} chunks`);
});

Deno.test("writeChunksSync: nothing to write writes nothing", () => {
  const stream = shortStream(10);
  writeChunksSync(stream, []);
  writeChunksSync(stream, [new Uint8Array(0)]);
  assertEquals(stream.writes.length, 0);
});

Deno.test("base64: the text btoa gives, and back to the same bytes, at every padding", () => {
  for (const length of [0, 1, 2, 3, 4, 100_003]) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 37 + 11) % 256);
    const text = encodeBase64(bytes);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    assertEquals(text, btoa(binary), `${length} bytes`);
    assertEquals(decodeBase64(text), bytes, `${length} bytes back`);
  }
  assertThrows(() => decodeBase64("not base64!"));
});
