/**
 * Following `projects.toml` for a list of the workspace (the app's pages,
 * the dashboard): a change of its text (or the file coming or going) is
 * told once, so that the list is read again with the projects, the Skiff
 * agent's settings and the hosts as they are now. The file is followed with
 * the system's file events (`watchPath`); nothing runs on a timer unless
 * the system gives none.
 *
 * @module
 */

import { projectsFile } from "../config/paths.ts";
import { type PathWatch, watchPath } from "../platform/path_watch.ts";

/** Options for {@linkcode ConfigFollower}. */
export interface ConfigFollowerOptions {
  /** Hears why the system's file events could not be used. */
  log?: (line: string) => void;
}

/** Follows `projects.toml`: tells `changed` when its text changed (or it came or went). */
export class ConfigFollower {
  readonly #file = projectsFile();
  readonly #watch: PathWatch;
  #text: string;

  /** Follows the file from now on. */
  constructor(changed: () => void, options: ConfigFollowerOptions = {}) {
    this.#text = this.#read();
    this.#watch = watchPath(this.#file, {
      changed: () => {
        const text = this.#read();
        if (text === this.#text) return;
        this.#text = text;
        changed();
      },
      trouble: (why) => options.log?.(`${why}; projects.toml is looked at every few seconds`),
    });
  }

  #read(): string {
    try {
      return `text:${Deno.readTextFileSync(this.#file)}`;
    } catch (error) {
      return error instanceof Deno.errors.NotFound ? "missing" : `problem:${error}`;
    }
  }

  /** Stops following. */
  close(): void {
    this.#watch.close();
  }
}
