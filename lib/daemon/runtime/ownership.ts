/**
 * skiffd's hold on its socket's path. A cleaned `/tmp` or runtime folder
 * removes the socket (and often the lock beside it) under a running skiffd:
 * nobody could reach it, and the next command would start a second skiffd
 * beside it. So skiffd looks every second: when the lock file is gone it
 * takes the lock again, when the socket is gone it listens again, and when
 * another skiffd took the lock meanwhile, that one owns the path and this
 * one stops without touching its files.
 *
 * @module
 */

import type { RuntimeFiles } from "../../config/paths.ts";
import { ensureDir, lockHolderPid, tryFileLock, writeOwnPid } from "../../platform/files.ts";

/** How often the socket and the lock are looked at. */
export const OWNERSHIP_CHECK_MS = 1000;

/** Options for {@linkcode Ownership}. */
export interface OwnershipOptions {
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Makes the socket again at its path. */
  relisten: () => Promise<void>;
  /** The files beside the socket were removed and are back: reopen the log, rewrite the shim. */
  restored: () => void;
  /** Another skiffd owns the path now: stop, and leave its files alone. */
  lost: (why: string) => void;
}

/** The inode of `path`, or undefined when it does not exist. */
export function inodeOf(path: string): number | null | undefined {
  try {
    return Deno.statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Whether something accepts connections on the Unix socket `path`. */
export async function socketAnswers(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The open lock file a skiffd holds its lock with: a `Deno.FsFile`, or the
 * descriptor a skiffd inherited across an upgrade (see `exec.ts`).
 */
export interface HeldLock {
  /** Facts about the open file (its inode). */
  statSync(): { ino: number | null };
  /** Closes it, which lets the lock go. */
  close(): void;
}

/** Watches the lock and the socket of a running skiffd; see the module's description. */
export class Ownership {
  readonly #files: RuntimeFiles;
  readonly #options: OwnershipOptions;
  #lock: HeldLock;
  #lockInode: number | null;
  #socketInode: number | null | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking = false;
  #lost = false;

  /** Takes over `lock`, which this process holds; call {@linkcode Ownership.listening} once it listens. */
  constructor(files: RuntimeFiles, lock: HeldLock, options: OwnershipOptions) {
    this.#files = files;
    this.#lock = lock;
    this.#lockInode = lock.statSync().ino;
    this.#options = options;
  }

  /** The lock file's inode this skiffd holds the lock on (`null` where unknown). */
  get lockInode(): number | null {
    return this.#lockInode;
  }

  /** Notes the socket this skiffd just made, to tell it from another's. */
  listening(): void {
    this.#socketInode = inodeOf(this.#files.socket);
  }

  /**
   * Whether this skiffd still owns the path (and so its workspace file):
   * the lock file at the path is the one it holds.
   */
  owns(): boolean {
    if (this.#lost) return false;
    return this.#lockInode === null || inodeOf(this.#files.lock) === this.#lockInode;
  }

  /** Starts looking every {@linkcode OWNERSHIP_CHECK_MS}. */
  start(): void {
    this.#timer = setInterval(() => void this.check(), OWNERSHIP_CHECK_MS);
  }

  /** Stops looking. The lock stays held until the process exits (`daemon stop` waits on it). */
  stop(): void {
    clearInterval(this.#timer);
  }

  /** Looks once; the timer calls this, tests may too. */
  async check(): Promise<void> {
    if (this.#checking || this.#lost) return;
    this.#checking = true;
    try {
      if (!this.owns() && !(await this.#retakeLock())) return;
      await this.#checkSocket();
    } catch (error) {
      this.#options.log(`could not check the socket: ${(error as Error)?.message ?? error}`);
    } finally {
      this.#checking = false;
    }
  }

  /** The lock file was removed or replaced: take the lock at the path again, if nobody has. */
  async #retakeLock(): Promise<boolean> {
    const files = this.#files;
    ensureDir(files.dir, 0o700);
    const lock = await tryFileLock(files.lock, { patient: true });
    if (!lock) {
      // The new holder may be writing its pid just now.
      const pid = lockHolderPid(files.lock);
      this.#lost = true;
      this.stop();
      this.#options.lost(
        `another skiffd${pid ? ` (pid ${pid})` : ""} owns ${files.socket} now: its lock file ` +
          `was removed under this one (a cleaned folder) and taken again`,
      );
      return false;
    }
    writeOwnPid(lock);
    // The old lock is on a removed file: nobody can meet it any more.
    this.#lock.close();
    this.#lock = lock;
    this.#lockInode = lock.statSync().ino;
    this.#options.restored();
    this.#options.log(`the lock file ${files.lock} was removed; took it again`);
    return true;
  }

  async #checkSocket(): Promise<void> {
    const path = this.#files.socket;
    const now = inodeOf(path);
    if (now !== undefined && now === this.#socketInode) return;
    if (now !== undefined) {
      // Something else lies at the path while this skiffd holds the lock.
      if (await socketAnswers(path)) {
        this.#lost = true;
        this.stop();
        this.#options.lost(`another program answers on ${path} now`);
        return;
      }
      this.#options.log(`${path} was replaced by a file that does not answer; removing it`);
      Deno.removeSync(path);
    } else {
      this.#options.log(`the socket ${path} was removed; making it again`);
    }
    ensureDir(this.#files.dir, 0o700);
    this.#options.restored();
    await this.#options.relisten();
    this.listening();
  }
}
