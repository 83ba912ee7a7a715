/**
 * Shared helpers for the ledger tests: temporary folders, a fixed clock and
 * raw access to the database file.
 *
 * @module
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../../lib/cli/errors.ts";
import { type Ledger, openLedger, type OpenOptions } from "../../lib/ledger/mod.ts";

/** A fixed moment for tests: 5 March 2024, noon local time. */
export const NOON = new Date(2024, 2, 5, 12, 0, 0);

/** A temporary folder that removes itself with `await using`. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "skiff-ledger-test-" });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

/** Opens a ledger in `dir` with the fixed clock unless options say otherwise. */
export function open(dir: string, options: OpenOptions = {}): Ledger {
  return openLedger(join(dir, "ledger.db"), { now: () => NOON, cwd: dir, ...options });
}

/** Runs a function on a raw connection to a database file, then closes it. */
export function raw<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Asserts that `fn` throws a SkiffError with this exit name, and returns it. */
export function throwsSkiff(
  fn: () => unknown,
  exit: SkiffError["exit"],
  match?: RegExp,
): SkiffError {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof SkiffError)) throw new Error(`expected a SkiffError, got ${error}`);
    if (error.exit !== exit) {
      throw new Error(`expected exit ${exit}, got ${error.exit}: ${error.message}`);
    }
    if (match && !match.test(error.message)) {
      throw new Error(`message ${JSON.stringify(error.message)} does not match ${match}`);
    }
    if (error.message.includes("\n")) throw new Error("error message has more than one line");
    return error;
  }
  throw new Error(`expected a SkiffError with exit ${exit}, but nothing was thrown`);
}

/** Every file in a folder (not recursive) with its bytes. */
export function snapshot(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile) files.set(entry.name, Deno.readFileSync(join(dir, entry.name)));
  }
  return files;
}

/** A pane for tests. */
export function pane(id: string, generation: number | null = 1000, name = `name-${id}`) {
  return { id, name, generation };
}
