/**
 * Writes what arrives on stdin to a file as timed JSON lines,
 * `{"at": <ms since the epoch>, "out": "<base64>"}`, one per chunk read.
 * `capture_screens.ts` runs it as a `tmux pipe-pane` command, so each chunk
 * is stamped when tmux handed it over, and turns the log into a fixture's
 * `session.jsonl`.
 *
 * Run: `deno run -A tests/agents/timed_log.ts OUT` (OUT gets `{"ready": true}` first).
 *
 * @module
 */

import { Buffer } from "node:buffer";

if (import.meta.main) {
  const out = await Deno.open(Deno.args[0], { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  const line = (value: unknown) => out.writeSync(encoder.encode(JSON.stringify(value) + "\n"));
  line({ ready: true, at: Date.now() });
  const buffer = new Uint8Array(65536);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    line({ at: Date.now(), out: Buffer.from(buffer.subarray(0, n)).toString("base64") });
  }
  out.close();
}
