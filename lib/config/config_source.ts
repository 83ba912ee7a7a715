/**
 * The config as a long-running process sees it: `projects.toml` read again
 * whenever the file changes, at most once every {@linkcode RECHECK_MS} on hot
 * paths, keeping the last good config when an edit is broken.
 *
 * @module
 */

import { type Config, loadConfig } from "./config.ts";

/** How often {@linkcode ConfigSource.recent} looks at the file. */
export const RECHECK_MS = 500;

/**
 * The config as a long-running process sees it: read again whenever the
 * file changes, so `skiff project add` takes effect without a reload. A
 * broken edit keeps the last good config.
 */
export class ConfigSource {
  readonly #file: string;
  readonly #onError: (message: string) => void;
  readonly #check: (config: Config) => void;
  #config: Config;
  #error: string | null = null;
  #stamp = "";
  #checkedAt = 0;

  /**
   * Reads `file` now; a broken file throws (a daemon must not start on a
   * config it cannot read). Later, `onError` hears about edits that could not
   * be read, and the last good config stays. `check` checks what this room
   * cannot read (the `[agents]` tables), throwing to refuse the config.
   */
  constructor(
    file: string,
    onError: (message: string) => void,
    options: { check?: (config: Config) => void } = {},
  ) {
    this.#file = file;
    this.#onError = onError;
    this.#check = options.check ?? (() => {});
    this.#config = this.reload();
  }

  #currentStamp(): string {
    try {
      const info = Deno.statSync(this.#file);
      return `${info.ino}:${info.mtime?.getTime()}:${info.size}`;
    } catch {
      return "missing";
    }
  }

  /**
   * The config for hot paths (agent readings, many a second): like
   * {@linkcode ConfigSource.get}, but the file is looked at once every
   * {@linkcode RECHECK_MS} at most.
   */
  recent(): Config {
    return Date.now() - this.#checkedAt < RECHECK_MS ? this.#config : this.get();
  }

  /** The config, re-read first if the file changed. */
  get(): Config {
    this.#checkedAt = Date.now();
    if (this.#currentStamp() !== this.#stamp) {
      try {
        this.reload();
      } catch (error) {
        this.#error = (error as Error).message;
        this.#onError(this.#error);
        this.#stamp = this.#currentStamp();
      }
    }
    return this.#config;
  }

  /**
   * Why the file could not be read when it was last looked at, or null when
   * it could: while it is set, {@linkcode ConfigSource.get} gives the last
   * good config.
   */
  get error(): string | null {
    return this.#error;
  }

  /** Reads the file now; throws (keeping the old config) when it is broken. */
  reload(): Config {
    const stamp = this.#currentStamp();
    const config = loadConfig(this.#file);
    this.#check(config);
    this.#config = config;
    this.#error = null;
    this.#stamp = stamp;
    return this.#config;
  }
}
