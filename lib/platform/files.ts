/**
 * File writes that never leave a half-written file, and exclusive locks.
 *
 * @module
 */

import { dirname } from "./path.ts";

/** Options for {@linkcode writeFileAtomic}. */
export interface WriteAtomicOptions {
  /**
   * The file's mode. Without it a new file gets 0644 and a file that exists
   * keeps its own mode, so replacing it never widens what its owner chose.
   */
  mode?: number;
  /**
   * A fault switch for tests: the write fails as on a full disk (ENOSPC)
   * once this many bytes of the temporary file are written.
   */
  spaceLeft?: number;
  /**
   * Flush the file and its folder to the disk (default true). Without it the
   * write still survives a crash of the process, though not of the system.
   */
  sync?: boolean;
}

/** The error a write gets from a full disk. */
function noSpaceError(path: string): Error {
  const error = new Error(`No space left on device (os error 28): write '${path}'`);
  (error as Error & { code: string }).code = "ENOSPC";
  return error;
}

/**
 * Writes `data` to `path` so that readers see either the old file or the new
 * one, never a mix: a temporary file beside it, flushed, then renamed over it.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteAtomicOptions = {},
): void {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let mode = options.mode ?? 0o644;
  if (options.mode === undefined) {
    try {
      mode = (Deno.statSync(path).mode ?? mode) & 0o7777;
    } catch {
      // A new file.
    }
  }
  const temp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const file = Deno.openSync(temp, { write: true, createNew: true, mode });
  try {
    const room = Math.min(bytes.length, options.spaceLeft ?? bytes.length);
    let offset = 0;
    while (offset < room) offset += file.writeSync(bytes.subarray(offset, room));
    if (room < bytes.length) throw noSpaceError(temp);
    // The umask may have narrowed the mode at creation.
    Deno.chmodSync(temp, mode);
    if (options.sync !== false) file.syncSync();
  } catch (error) {
    file.close();
    removeQuietly(temp);
    throw error;
  }
  file.close();
  try {
    Deno.renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  if (options.sync === false) return;
  try {
    // Make the rename itself durable.
    const dir = Deno.openSync(dirname(path), { read: true });
    try {
      dir.syncSync();
    } finally {
      dir.close();
    }
  } catch {
    // Some platforms cannot open a folder for syncing; the rename is still atomic.
  }
}

/** Removes a file if it can; the error that led here matters more than this one. */
function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Gone already, or the file system refuses even this.
  }
}

/**
 * Runs `work` while holding an exclusive lock on `lockPath` (made if missing).
 * Waits for other holders.
 */
export async function withFileLock<T>(lockPath: string, work: () => T | Promise<T>): Promise<T> {
  const file = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await file.lock(true);
    return await work();
  } finally {
    file.close();
  }
}

/** The waits between tries of a patient {@linkcode tryFileLock}, in ms (75 in all). */
const LOCK_TRIES_MS = [5, 10, 20, 40];

/**
 * Takes an exclusive lock on `path` (made, mode 0600, if missing) without
 * waiting for a holder. Returns the open file, which holds the lock until it
 * is closed, or `null` when another holds it. With `patient`, a lock found
 * taken is tried again for 75 ms: where {@linkcode fileLockHeld} cannot
 * read the kernel's table of locks, it takes the lock for a moment to look,
 * and a look is no holder (skiffd's and the watcher's locks are looked at).
 */
export async function tryFileLock(
  path: string,
  options: { patient?: boolean } = {},
): Promise<Deno.FsFile | null> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  if (file.tryLockSync(true)) return file;
  for (const wait of options.patient ? LOCK_TRIES_MS : []) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (file.tryLockSync(true)) return file;
  }
  file.close();
  return null;
}

/**
 * The name `/proc/locks` gives the file of `info`: its device's major and
 * minor numbers in hex, and its inode (Linux's `MAJOR:MINOR:INODE`).
 */
function procLocksName(info: Deno.FileInfo): string | undefined {
  if (info.dev === null || info.ino === null) return undefined;
  const dev = BigInt(info.dev);
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, "0")}:${
    minor.toString(16).padStart(2, "0")
  }:${info.ino}`;
}

/**
 * Whether Linux's table of locks shows a holder of the file of `info`;
 * `undefined` when it cannot be read (another system).
 */
function heldInProcLocks(info: Deno.FileInfo): boolean | undefined {
  const name = procLocksName(info);
  if (name === undefined || Deno.build.os !== "linux") return undefined;
  let table: string;
  try {
    table = Deno.readTextFileSync("/proc/locks");
  } catch {
    return undefined;
  }
  // "1: FLOCK  ADVISORY  WRITE 4242 fe:00:2146801 0 EOF"; a waiter's line has "->" after the number.
  for (const line of table.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] !== "->" && fields[5] === name) return true;
  }
  return false;
}

/**
 * Whether another process holds the lock on `path`; false when there is no
 * file. On Linux it reads the kernel's table of locks and never touches the
 * lock; elsewhere it takes the lock for a moment and lets it go at once.
 */
export function fileLockHeld(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch {
    return Promise.resolve(false);
  }
  try {
    const held = heldInProcLocks(file.statSync());
    if (held !== undefined) return Promise.resolve(held);
    // Taken here, the lock goes with the close, in the same turn.
    return Promise.resolve(!file.tryLockSync(true));
  } finally {
    file.close();
  }
}

/** Writes this process's pid into a lock file it holds, for others to read. */
export function writeOwnPid(lock: Deno.FsFile): void {
  lock.truncateSync(0);
  lock.writeSync(new TextEncoder().encode(`${Deno.pid}\n`));
}

/** The pid a lock's holder wrote into `path`, or `null` when none can be read (yet). */
export function lockHolderPid(path: string): number | null {
  try {
    const pid = Number(new TextDecoder().decode(Deno.readFileSync(path)).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Makes a folder (and its parents) and sets its mode. */
export function ensureDir(path: string, mode?: number): void {
  Deno.mkdirSync(path, { recursive: true, mode });
  if (mode !== undefined) Deno.chmodSync(path, mode);
}

/**
 * Whether something is at `path` (a link counts by what it points to), as
 * `node:fs`'s `existsSync` says, without the cost of loading `node:fs`.
 */
export function pathExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a folder (false when it is missing or cannot be read). */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
