/**
 * skiffd's own log: the file its lines go to, opened again when a cleaned
 * folder took it away, and the one line written straight to the file when
 * the log is not open (a start that failed).
 *
 * @module
 */

import { type LogWriter, openLog } from "../../platform/log.ts";
import { inodeOf } from "./ownership.ts";

/** The log file of a running skiffd. */
export class DaemonLog {
  readonly #path: string;
  #writer: LogWriter;
  #inode: number | null | undefined;

  /** Opens the log at `path`. */
  constructor(path: string) {
    this.#path = path;
    this.#writer = openLog(path);
    this.#inode = inodeOf(path);
  }

  /** Writes a line; a bound function, to hand to whoever logs. */
  readonly line = (line: string): void => this.#writer(line);

  /**
   * Opens the log again when a cleaned folder took it with it (another
   * skiffd may have made a new one there).
   */
  reopen(): void {
    if (inodeOf(this.#path) === this.#inode && this.#inode !== undefined) return;
    this.#writer.close();
    this.#writer = openLog(this.#path);
    this.#inode = inodeOf(this.#path);
  }

  /** Closes the file. */
  close(): void {
    this.#writer.close();
  }
}

/** Appends one line to the log at `path`, for when skiffd's own log is not open. */
export function logLine(path: string, line: string): void {
  try {
    Deno.writeTextFileSync(path, `${new Date().toISOString()} ${line}\n`, { append: true });
  } catch {
    // No log either.
  }
}
