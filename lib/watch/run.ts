/**
 * One watcher per daemon: the lock beside the socket, the log beside it, and
 * the start of a watcher as a copy of this program apart from the login.
 *
 * @module
 */

import { runtimeFiles, socketPath } from "../config/paths.ts";
import { agentLedgerPath } from "../tasks/ledger_file.ts";
import { type ApartChild, logApart, spawnApart } from "../platform/apart.ts";
import {
  ensureDir,
  fileLockHeld,
  lockHolderPid,
  tryFileLock,
  writeOwnPid,
} from "../platform/files.ts";
import { openLog } from "../platform/log.ts";
import { runWatcher, type WatcherStop } from "./watcher.ts";

/** Options for {@linkcode watch}. */
export interface WatchOptions {
  /** The socket of the skiffd to watch; by default the configured one. */
  socket?: string;
  /** Send desktop notifications (default true). */
  notify?: boolean;
}

/** What {@linkcode watch} did. */
export type WatchOutcome =
  | { ran: true; stop: WatcherStop }
  | { ran: false; pid: number | null };

/**
 * Runs the watcher for the skiffd on `socket` until it stops, holding the
 * watcher's lock the whole time. When another watcher holds the lock, returns
 * at once with its pid.
 */
export async function watch(options: WatchOptions = {}): Promise<WatchOutcome> {
  const files = runtimeFiles(options.socket ?? socketPath());
  ensureDir(files.dir, 0o700);
  const lock = await tryFileLock(files.watchLock, { patient: true });
  if (!lock) return { ran: false, pid: lockHolderPid(files.watchLock) };
  try {
    writeOwnPid(lock);
    const log = openLog(files.watchLog);
    log(`watcher starting, pid ${Deno.pid}, socket ${files.socket}`);
    logApart(log);
    const stop = await runWatcher({
      socket: files.socket,
      ledgerPath: agentLedgerPath,
      log,
      notify: options.notify,
    });
    log(`watcher stopped: ${stop}`);
    return { ran: true, stop };
  } finally {
    lock.close();
  }
}

/** Whether a watcher holds the lock of the skiffd on `socket`. */
export function watcherRunning(socket: string = socketPath()): Promise<boolean> {
  return fileLockHeld(runtimeFiles(socket).watchLock);
}

/**
 * Starts a watcher for the skiffd on `socket`, apart from this login, unless
 * one runs already. Returns the child, or `undefined` when one was running.
 */
export async function startWatcher(
  socket: string = socketPath(),
  options: { notify?: boolean } = {},
): Promise<ApartChild | undefined> {
  if (await watcherRunning(socket)) return undefined;
  const args = options.notify === false ? ["watch", "--no-notify"] : ["watch"];
  return await spawnApart(args, {
    unit: runtimeFiles(socket).watchUnit,
    env: { SKIFF_SOCKET: socket },
  });
}
