/**
 * Starting the watcher from skiffd, and logging what really happened. After
 * a kill -9 of skiffd the old watcher lives on, holds its lock and connects
 * to the new skiffd by itself; a new one would leave at once. So skiffd
 * looks at the lock first, and logs how a watcher it started ended.
 *
 * @module
 */

import { spawnApart } from "../../platform/apart.ts";
import { fileLockHeld, lockHolderPid } from "../../platform/files.ts";

/** A watcher that ends this soon after its start did not run: it found another holding the lock. */
const LEFT_AT_ONCE_MS = 10_000;

/** Where the watcher of a skiffd lives. */
export interface WatcherFiles {
  /** skiffd's socket. */
  socket: string;
  /** The watcher's lock. */
  watchLock: string;
  /** The systemd unit of the watcher's scope. */
  watchUnit: string;
}

/**
 * Starts a watcher for the skiffd of `files` (`why` says what called for
 * it) unless one holds the lock already, and logs each step to `log`.
 */
export async function startWatcher(
  files: WatcherFiles,
  why: string,
  log: (line: string) => void,
): Promise<void> {
  if (await fileLockHeld(files.watchLock)) {
    const pid = lockHolderPid(files.watchLock);
    log(`the watcher runs already${pid ? ` (pid ${pid})` : ""} and connects by itself (${why})`);
    return;
  }
  let child;
  try {
    child = await spawnApart(["watch"], {
      unit: files.watchUnit,
      env: { SKIFF_SOCKET: files.socket },
    });
  } catch (error) {
    log(`could not start the watcher: ${(error as Error).message}`);
    return;
  }
  const at = Date.now();
  log(`started the watcher (${why}), pid ${child.pid}`);
  child.exited.then((code) => {
    if (Date.now() - at > LEFT_AT_ONCE_MS) return;
    const holder = lockHolderPid(files.watchLock);
    log(
      holder && holder !== child.pid
        ? `the watcher pid ${child.pid} left at once: watcher pid ${holder} holds the lock`
        : `the watcher pid ${child.pid} left at once (exit ${code})`,
    );
  }).catch(() => {});
}
