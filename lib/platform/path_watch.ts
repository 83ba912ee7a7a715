/**
 * Following one file that may not exist yet, with the kernel's file events
 * (inotify, FSEvents) instead of a timer, so following costs nothing while
 * nothing changes.
 *
 * The file's folder is watched without its subfolders, and only names that
 * start with the file's name count: `ledger.db` also hears `ledger.db-wal`,
 * and `projects.toml` the temporary file an atomic write renames over it.
 * While the folder is missing, the nearest folder above it that exists is
 * watched instead, for the next folder on the way, and the watch moves down
 * as folders appear (and back up when they go).
 *
 * @module
 */

import { basename, dirname, resolve } from "./path.ts";

/** How long a burst of events is gathered before `changed` runs once for all of it. */
export const SETTLE_MS = 40;

/** How often the file is looked at when the system gives no file events. */
export const FALLBACK_MS = 2000;

/** Options for {@linkcode watchPath}. */
export interface PathWatchOptions {
  /** Runs, once per burst of events, when the file (or a folder on its way) may have changed. */
  changed: () => void;
  /** Hears why the system's file events could not be used (the watch then looks on a timer). */
  trouble?: (why: string) => void;
}

/** A running watch; `close` ends it. */
export interface PathWatch {
  /** The file followed. */
  readonly path: string;
  /** Ends the watch. */
  close(): void;
}

/** The nearest folder that exists at or above `dir`, and the next name from it towards `dir`. */
function nearestFolder(dir: string): { folder: string; next: string | null } {
  let next: string | null = null;
  for (let at = dir;;) {
    try {
      if (Deno.statSync(at).isDirectory) return { folder: at, next };
    } catch {
      // Not there (or not ours to look at): go up.
    }
    const up = dirname(at);
    if (up === at) return { folder: at, next };
    next = basename(at);
    at = up;
  }
}

/** What one watch looks at: `folder`, for `next` on the way to the file, or for the file's `name`. */
export interface WatchedFolder {
  /** The folder watched. */
  folder: string;
  /** The next folder on the way to the file while the file's own folder is missing, else null. */
  next: string | null;
  /** The file's name. */
  name: string;
}

/**
 * What an event at `path` means to a watch: `file` when it may concern the
 * file, `rearm` when the watch must move (its folder went, or the next one on
 * the way came), else null.
 */
export function eventConcerns(path: string, watched: WatchedFolder): "file" | "rearm" | null {
  const { folder, next, name } = watched;
  if (path === folder) return "rearm";
  if (dirname(path) !== folder) return null;
  const base = basename(path);
  if (next !== null) return base === next ? "rearm" : null;
  return base.startsWith(name) ? "file" : null;
}

/** Events that say a file was only read. */
const READ_ONLY = new Set<Deno.FsEvent["kind"]>(["access"]);

class Watch implements PathWatch {
  readonly path: string;
  readonly #dir: string;
  readonly #name: string;
  readonly #options: PathWatchOptions;
  #watcher: Deno.FsWatcher | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fallback: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(path: string, options: PathWatchOptions) {
    this.path = resolve(path);
    this.#dir = dirname(this.path);
    this.#name = basename(this.path);
    this.#options = options;
    this.#arm();
  }

  #settle(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#options.changed();
    }, SETTLE_MS);
  }

  /** Watches the file's folder, or the nearest one above it while it is missing. */
  #arm(): void {
    const { folder, next } = nearestFolder(this.#dir);
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(folder, { recursive: false });
    } catch (error) {
      this.#options.trouble?.(`cannot watch ${folder}: ${(error as Error).message}`);
      this.#fallback ??= setInterval(() => this.#options.changed(), FALLBACK_MS);
      return;
    }
    this.#watcher = watcher;
    // A folder on the way that came between the look above and the arming made no event
    // here: look again now that the watch is armed, and move down if it did.
    if (next !== null && nearestFolder(this.#dir).folder !== folder) {
      queueMicrotask(() => {
        if (this.#watcher === watcher) this.#rearm();
      });
    }
    const watched: WatchedFolder = { folder, next, name: this.#name };
    (async () => {
      for await (const event of watcher) {
        if (READ_ONLY.has(event.kind)) continue;
        const verdicts = event.paths.map((path) => eventConcerns(path, watched));
        if (verdicts.includes("rearm")) {
          // The folder went, or the next one on the way came: watch from where things stand now.
          this.#rearm();
          return;
        }
        if (verdicts.includes("file")) this.#settle();
      }
      // The system ended the watch on its own (its folder went): watch again from where things stand.
      if (this.#watcher === watcher) this.#rearm();
    })().catch((error) => {
      if (!this.#closed) this.#options.trouble?.(`watching ${folder}: ${error}`);
    });
  }

  #rearm(): void {
    if (this.#closed) return;
    try {
      this.#watcher?.close();
    } catch {
      // Closed already.
    }
    this.#watcher = undefined;
    this.#arm();
    this.#settle();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#fallback);
    try {
      this.#watcher?.close();
    } catch {
      // Closed already.
    }
  }
}

/**
 * Follows the file at `path`: `changed` runs shortly after something wrote,
 * made, renamed or removed it (or a file whose name starts with its name),
 * and after a folder on its way came or went. It may also run when nothing
 * that matters changed, so the caller looks at the file itself.
 */
export function watchPath(path: string, options: PathWatchOptions): PathWatch {
  return new Watch(path, options);
}
