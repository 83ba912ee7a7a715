/**
 * Reading all of stdin, for commands that take text or JSON from a pipe.
 *
 * @module
 */

import { joinBytes } from "../platform/bytes.ts";

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
  return new TextDecoder().decode(joinBytes(chunks));
}
