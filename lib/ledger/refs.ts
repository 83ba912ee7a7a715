/**
 * Refs: how a command names a row.
 *
 * A ref is one of:
 * - a row id, in decimal digits (`12`);
 * - a full uid (`3f2a9c1b`);
 * - the start of a uid, at least {@linkcode MIN_PREFIX} characters (`3f2a`).
 *
 * Case and surrounding spaces do not matter. A ref that can mean more than one
 * row is refused, never guessed: digits such as `1234` can be both a row id and
 * the start of a uid, and a short prefix can start several uids. The error
 * (exit `USAGE`) lists the candidates. A ref that matches nothing gives exit
 * `NOT_FOUND`. Removed rows are never matched.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";

/** The shortest uid prefix a ref may use. */
export const MIN_PREFIX = 4;

/** What a ref can mean, before the ledger is asked. */
export interface ParsedRef {
  /** The ref as given, trimmed, for messages. */
  text: string;
  /** The row id it names, if it is all digits. */
  id: number | null;
  /** The uid prefix it names, if it is 4 to 8 hex characters. */
  prefix: string | null;
}

/** A row that a ref matched. */
export interface RefCandidate {
  /** The row id. */
  id: number;
  /** The row's uid. */
  uid: string;
}

/**
 * Reads a ref. Throws a {@linkcode SkiffError} with exit `USAGE` when it can be
 * neither a row id nor a uid.
 */
export function parseRef(ref: string): ParsedRef {
  const text = ref.trim().toLowerCase();
  const id = /^[0-9]+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
  const prefix = new RegExp(`^[0-9a-f]{${MIN_PREFIX},8}$`).test(text) ? text : null;
  if (id === null && prefix === null) {
    const why = text === ""
      ? "Task ID or uid is empty"
      : /^[0-9a-f]{1,3}$/.test(text)
      ? `'${ref.trim()}' is too short for a uid (use at least ${MIN_PREFIX} characters)`
      : `'${ref.trim()}' is not a task ID or uid`;
    throw new SkiffError(why, { exit: "USAGE", details: { ref } });
  }
  return { text, id, prefix };
}

/** Finds every row a ref can mean, in row id order. */
export function refCandidates(db: DatabaseSync, ref: ParsedRef): RefCandidate[] {
  const found = new Map<number, RefCandidate>();
  if (ref.id !== null) {
    const row = db.prepare("SELECT id, uid FROM tasks WHERE id = ?").get(ref.id);
    if (row) found.set(Number(row.id), { id: Number(row.id), uid: String(row.uid) });
  }
  if (ref.prefix !== null) {
    const rows = db.prepare("SELECT id, uid FROM tasks WHERE uid GLOB ? ORDER BY id").all(
      `${ref.prefix}*`,
    );
    for (const row of rows) found.set(Number(row.id), { id: Number(row.id), uid: String(row.uid) });
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/**
 * Resolves a ref to a row id. Throws a {@linkcode SkiffError}: exit `USAGE`
 * for a malformed or ambiguous ref (with `details.candidates`), exit
 * `NOT_FOUND` when no row matches.
 */
export function resolveRef(db: DatabaseSync, ref: string): number {
  const parsed = parseRef(ref);
  const candidates = refCandidates(db, parsed);
  if (candidates.length === 1) return candidates[0].id;
  if (candidates.length === 0) {
    throw new SkiffError(`No task with ID or uid '${parsed.text}'`, {
      exit: "NOT_FOUND",
      details: { ref: parsed.text },
    });
  }
  const shown = candidates.slice(0, 10).map((c) => `${c.uid} (ID ${c.id})`);
  if (candidates.length > shown.length) shown.push(`${candidates.length - shown.length} more`);
  throw new SkiffError(
    `'${parsed.text}' is ambiguous: it matches ${shown.join(", ")}; use a full uid`,
    { exit: "USAGE", details: { ref: parsed.text, candidates } },
  );
}
