/**
 * Saving the workspace so that a failed save costs nothing but the save:
 * a full disk or a folder that refuses writes leaves the old file whole and
 * skiffd running, is logged once (and once more when saving works again),
 * and the next save writes everything that changed meanwhile.
 *
 * @module
 */

import { saveWorkspace, type WorkspaceData } from "./workspace.ts";

/** Options for {@linkcode WorkspaceSaver}. */
export interface SaverOptions {
  /** Where the workspace is saved. */
  file: string;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /**
   * Whether this skiffd may still write the file: false once another
   * skiffd owns the socket's path (and so the file). A save is put off
   * meanwhile.
   */
  mayWrite?: () => boolean;
}

/** Saves one workspace and keeps track of saves that failed or were put off. */
export class WorkspaceSaver {
  readonly #data: WorkspaceData;
  readonly #options: SaverOptions;
  #error: string | null = null;
  #failed = 0;
  /** Whether the file lacks a change: its save failed, or was put off. */
  #behind = false;

  /** Saves `data` (the live object: each save writes it as it is then). */
  constructor(data: WorkspaceData, options: SaverOptions) {
    this.#data = data;
    this.#options = options;
  }

  /** Saves now; a failure is logged (once) and remembered, never thrown. */
  save(): void {
    if (this.#options.mayWrite && !this.#options.mayWrite()) {
      this.#behind = true;
      return;
    }
    this.#behind = false;
    try {
      saveWorkspace(this.#options.file, this.#data);
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      if (this.#error === null) {
        this.#options.log(
          `cannot save the workspace (${message}); the old file stays, and skiffd tries again with each change and every few seconds`,
        );
      }
      this.#error = message;
      this.#failed++;
      this.#behind = true;
      return;
    }
    if (this.#error !== null) {
      this.#options.log(`workspace saved again after ${this.#failed} failed save(s)`);
      this.#error = null;
      this.#failed = 0;
    }
  }

  /** Saves again when the last save failed or was put off. */
  saveIfBehind(): void {
    if (this.#behind) this.save();
  }

  /** Why the last save failed, or `null` when the file holds the workspace. */
  get error(): string | null {
    return this.#error;
  }
}
