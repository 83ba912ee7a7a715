/**
 * The thin layer over `node:sqlite`: connection settings, write transactions
 * and the mapping of SQLite's errors to one-line {@linkcode SkiffError}s.
 *
 * `node:sqlite` errors carry only a message, so busy and corrupt files are
 * told apart by their text.
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { dirname, join } from "../platform/path.ts";
import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";

/** The default busy timeout, in ms: how long a write waits for another writer. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Whether an error is SQLite's "database is locked" (or busy). */
export function isBusy(error: unknown): boolean {
  return error instanceof Error && /database (table )?is (locked|busy)/.test(error.message);
}

/** The error for a ledger that another process holds locked. */
export function lockedError(path: string, cause?: unknown): SkiffError {
  return new SkiffError(`Ledger is locked by another process: ${path}`, {
    exit: "DATA",
    details: { path },
    cause,
  });
}

/** Whether `error` says that another process holds the ledger locked ({@linkcode lockedError}). */
export function isLockedError(error: unknown): boolean {
  return error instanceof SkiffError && isBusy(error.cause);
}

/**
 * Turns a SQLite error into a {@linkcode SkiffError} with exit `DATA` when it
 * means a locked, damaged, foreign or read-only file. Other errors (and
 * SkiffErrors) come back unchanged.
 */
export function mapSqliteError(error: unknown, path: string): unknown {
  if (error instanceof SkiffError || !(error instanceof Error)) return error;
  const message = error.message;
  const fail = (text: string) =>
    new SkiffError(text, { exit: "DATA", details: { path }, cause: error });
  if (isBusy(error)) return lockedError(path, error);
  if (/file is not a database|malformed|file is encrypted/.test(message)) {
    return fail(`Ledger is damaged or not a SQLite file: ${path}`);
  }
  // Only these can mean a file system or file that refuses writes: look why (it costs a probe).
  const readOnly = /readonly database|unable to open/.test(message) ? whyReadOnly(path) : null;
  if (/readonly database/.test(message) || readOnly) {
    return fail(`Ledger is read-only${readOnly ? ` (${readOnly})` : ""}: ${path}`);
  }
  if (/unable to open database file/.test(message)) return fail(`Cannot open the ledger: ${path}`);
  if (/disk I\/O error|database or disk is full/.test(message)) {
    return fail(`Cannot write the ledger (${message}): ${path}`);
  }
  return error;
}

/** Tries to open `path` for writing (making it only when `create`, and removing it then). */
function writeRefusal(path: string, create: boolean): "EROFS" | "EACCES" | null {
  try {
    Deno.openSync(path, { write: true, createNew: create }).close();
    if (create) Deno.removeSync(path);
    return null;
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) return "EACCES";
    return (error as { code?: string }).code === "EROFS" ? "EROFS" : null;
  }
}

/**
 * Why the ledger at `path` cannot be written, when the file system says so:
 * mounted read-only, or no write permission on the file or on its folder
 * (SQLite writes its journal beside the file). `null` when it can be
 * written. Called only after SQLite failed: it opens the file for writing
 * without changing it, and makes and removes one empty file in the folder.
 */
export function whyReadOnly(path: string): string | null {
  const folder = dirname(path);
  if (pathExists(path)) {
    const file = writeRefusal(path, false);
    if (file === "EROFS") return "its file system is mounted read-only";
    if (file === "EACCES") return "no permission to write the file";
  }
  const probe = join(folder, `.skiff-write-check-${Deno.pid}`);
  const where = writeRefusal(probe, true);
  if (where === "EROFS") return "its file system is mounted read-only";
  if (where === "EACCES") return `no permission to write its folder ${folder}`;
  return null;
}

/** Runs `fn` and maps any SQLite error it throws with {@linkcode mapSqliteError}. */
export function guarded<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw mapSqliteError(error, path);
  }
}

/**
 * Runs `fn` in a write transaction that starts with `BEGIN IMMEDIATE`, so the
 * write lock is taken before anything is read. Commits when `fn` returns and
 * rolls back when it throws. Errors are mapped with {@linkcode mapSqliteError}.
 */
export function immediate<T>(db: DatabaseSync, path: string, fn: () => T): T {
  guarded(path, () => db.exec("BEGIN IMMEDIATE"));
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) {
      try {
        db.exec("ROLLBACK");
      } catch {
        // The rollback can only fail when SQLite already rolled back.
      }
    }
    throw mapSqliteError(error, path);
  }
}

/** Sets the per-connection settings: how long to wait for a lock, and how often to sync. */
export function configure(db: DatabaseSync, timeoutMs: number): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(timeoutMs))}`);
  db.exec("PRAGMA synchronous = NORMAL");
}

/** Blocks the thread for `ms` milliseconds (the ledger's API is synchronous). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Puts the file in WAL mode, so readers never wait for a writer. This writes
 * the file's header, so call it only on a file that is known to be a ledger.
 *
 * The switch needs the file to itself. When another connection holds a lock
 * that this one must wait out, SQLite reports "database is locked" at once
 * instead of waiting (waiting could deadlock), so the switch is tried again
 * after a short, random pause until `timeoutMs` has passed.
 */
export function useWal(db: DatabaseSync, timeoutMs: number): void {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const row = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string } | undefined;
    if (row?.journal_mode === "wal") return;
    try {
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
      sleepSync(2 + Math.random() * 18);
    }
  }
}

/**
 * Why a write would fail now, found without writing and without waiting:
 * the ledger is read-only, or another process holds its write lock (the
 * error's cause is then SQLite's "database is locked"). `null` when a write
 * could start. The statement changes no row, so a ledger that can be written
 * stays byte for byte as it was.
 */
export function writeProblem(db: DatabaseSync, path: string): SkiffError | null {
  const before = db.prepare("PRAGMA busy_timeout").get() as { timeout: number } | undefined;
  db.exec("PRAGMA busy_timeout = 0");
  try {
    db.exec("UPDATE tasks SET id = id WHERE 0");
    return null;
  } catch (error) {
    const mapped = mapSqliteError(error, path);
    if (mapped instanceof SkiffError) return mapped;
    throw error;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${Number(before?.timeout ?? 0)}`);
  }
}
