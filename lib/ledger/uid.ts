/**
 * Uids: 8 lowercase hex characters from a cryptographic random source, never
 * given twice. The `used_uids` table records every uid ever given, and it
 * keeps them after a row is removed.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** A pattern that matches a whole uid. */
export const UID_PATTERN = /^[0-9a-f]{8}$/;

/** Makes a random uid. It is not checked against the ledger. */
export function randomUid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Picks a uid that was never given and records it in `used_uids`. Call it
 * inside a write transaction, so no other process can take the same uid.
 */
export function claimUid(db: DatabaseSync): string {
  const used = db.prepare("SELECT 1 FROM used_uids WHERE uid = ?");
  const record = db.prepare("INSERT INTO used_uids (uid) VALUES (?)");
  for (let attempt = 0; attempt < 1000; attempt++) {
    const uid = randomUid();
    if (used.get(uid) !== undefined) continue;
    record.run(uid);
    return uid;
  }
  throw new Error("Could not find an unused uid after 1000 tries");
}
