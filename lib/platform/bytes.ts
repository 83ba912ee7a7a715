/**
 * Joining byte chunks, which the protocol, the client, the query filter and
 * stdin readers all need.
 *
 * @module
 */

/** Joins chunks into one array. A single chunk comes back as it is, not copied. */
export function joinBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
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
