/**
 * One landing at a time per repository: an exclusive lock (flock) on
 * `skiff/land.lock` in the repository's shared git folder, so every
 * worktree of it, and every Skiff (another socket, another machine's
 * skiffd over the same disk), takes the same one. The kernel drops the lock
 * when its process ends, however it ends, so a lander that crashed never
 * holds up the next one; that one finishes the crashed landing from its
 * journal (`steps.ts`) before it starts its own.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { ensureDir, lockHolderPid, tryFileLock, writeOwnPid } from "../platform/files.ts";
import { SkiffError } from "../errors.ts";
import { landFolder } from "./steps.ts";

/** A held landing lock; closing it lets the next landing go. */
export interface LandLock extends Disposable {
  /** Lets it go. */
  release(): void;
}

/**
 * Takes the landing lock of the repository whose git folder is `commonDir`,
 * waiting for a landing that holds it (`waiting` hears who it waits for,
 * once). A `signal` that aborts stops the wait (nothing was changed yet).
 */
export async function takeLandLock(
  commonDir: string,
  options: { waiting?: (pid: number | null) => void; signal?: AbortSignal } = {},
): Promise<LandLock> {
  ensureDir(landFolder(commonDir));
  const path = join(landFolder(commonDir), "land.lock");
  let file = await tryFileLock(path);
  if (!file) {
    options.waiting?.(lockHolderPid(path));
    const opened = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    const locked = opened.lock(true).then(() => opened);
    const stopped = new Promise<never>((_, reject) => {
      const stop = () =>
        reject(
          new SkiffError(
            "The landing was stopped while it waited for another: nothing was changed",
            {
              exit: "ERROR",
              details: { reason: "interrupted" },
            },
          ),
        );
      if (options.signal?.aborted) stop();
      options.signal?.addEventListener("abort", stop, { once: true });
    });
    try {
      file = await Promise.race([locked, stopped]);
    } catch (error) {
      // The lock may still come: let it go at once then.
      locked.then((f) => f.close(), () => {});
      throw error;
    }
  }
  const held = file;
  writeOwnPid(held);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.close();
  };
  return { release, [Symbol.dispose]: release };
}
