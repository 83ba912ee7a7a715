/**
 * Reading all of stdin, for commands that take text or JSON from a pipe.
 *
 * @module
 */

/** Joins byte chunks into one array. */
export function concatBytes(chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Reads stdin to its end as text. With `timeoutMs`, stops waiting after that
 * long and returns what came.
 */
export async function readStdin(options: { timeoutMs?: number } = {}): Promise<string> {
  const chunks: Uint8Array[] = [];
  const reader = Deno.stdin.readable.getReader();
  const timer = options.timeoutMs === undefined
    ? undefined
    : setTimeout(() => reader.cancel().catch(() => {}), options.timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch {
    // Cancelled by the timeout: keep what came.
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return new TextDecoder().decode(concatBytes(chunks));
}
