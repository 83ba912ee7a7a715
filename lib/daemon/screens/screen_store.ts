/**
 * The saved screens of one skiffd's panes, in a folder of the state folder
 * (0700): for each pane a history file that grows by what scrolled up
 * (`p3.history`) and a screen file, written whole each time (`p3.screen`,
 * JSON: size, title, the visible screen and how much of the history file
 * belongs to it). Files are 0600.
 *
 * A crash at any moment leaves a screen file that names a history that is
 * whole: the history is written first, and only the bytes the screen file
 * counts are read back. A file that is half-written or not a saved screen
 * is ignored with one log line.
 *
 * @module
 */

import { join } from "../../platform/path.ts";
import { ensureDir, writeFileAtomic } from "../../platform/files.ts";
import type { SavedScreen } from "../../screen/screen.ts";
import type { HistoryTake } from "../../screen/history_tap.ts";
import { diskFull } from "../records/mod.ts";

/** The screen file's format version. */
const VERSION = 1;

/** The most bytes of history kept for one pane; more starts the history file over. */
export const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/** The most bytes of a screen file read back (a visible screen is far smaller). */
const MAX_SCREEN_FILE_BYTES = 4 * 1024 * 1024;

/** What the screen file holds. */
interface ScreenFile {
  version: number;
  pane: string;
  cols: number;
  rows: number;
  title: string;
  viewport: string;
  history_bytes: number;
  history_lines: number;
  saved_at: string;
}

/** What is known of one pane's history file. */
export interface HistoryCount {
  /** Bytes that belong to the saved screen. */
  bytes: number;
  /** Lines. */
  lines: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function isScreenFile(value: unknown): value is ScreenFile {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const count = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 0;
  return v.version === VERSION && typeof v.pane === "string" && count(v.cols) &&
    count(v.rows) && (v.cols as number) > 0 && (v.rows as number) > 0 &&
    typeof v.title === "string" && typeof v.viewport === "string" &&
    count(v.history_bytes) && count(v.history_lines) && typeof v.saved_at === "string";
}

/** Options for {@linkcode ScreenStore}. */
export interface ScreenStoreOptions {
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
}

/** One skiffd's saved screens. */
export class ScreenStore {
  readonly #dir: string;
  readonly #options: ScreenStoreOptions;

  /** Keeps screens in `dir`, made (0700) at the first save. */
  constructor(dir: string, options: ScreenStoreOptions) {
    this.#dir = dir;
    this.#options = options;
  }

  /** The folder. */
  get dir(): string {
    return this.#dir;
  }

  #screenFile(pane: string): string {
    return join(this.#dir, `${pane}.screen`);
  }

  #historyFile(pane: string): string {
    return join(this.#dir, `${pane}.history`);
  }

  /**
   * Saves a pane's screen: `take`'s lines go onto its history file (or
   * replace it, for a reset), then the screen file is written whole.
   * Returns the history's new count and the bytes written; throws when the
   * disk refuses (the files on disk stay as they were, or name a whole
   * history).
   */
  save(
    pane: string,
    screen: Omit<SavedScreen, "history">,
    take: HistoryTake,
    before: HistoryCount,
  ): { history: HistoryCount; bytes: number } {
    ensureDir(this.#dir, 0o700);
    const historyFile = this.#historyFile(pane);
    const text = encoder.encode(take.text);
    if (diskFull()) throw new Deno.errors.WriteZero(`${historyFile}: no space left on device`);
    let history: HistoryCount;
    if (take.reset) {
      writeFileAtomic(historyFile, text, { mode: 0o600, sync: false });
      history = { bytes: text.length, lines: take.lines };
    } else {
      if (text.length > 0) {
        const file = Deno.openSync(historyFile, { append: true, create: true, mode: 0o600 });
        try {
          // Bytes beyond the count (a save cut off after its append) are dropped first.
          if (file.statSync().size !== before.bytes) file.truncateSync(before.bytes);
          let offset = 0;
          while (offset < text.length) offset += file.writeSync(text.subarray(offset));
        } finally {
          file.close();
        }
      }
      history = { bytes: before.bytes + text.length, lines: before.lines + take.lines };
    }
    const record: ScreenFile = {
      version: VERSION,
      pane,
      cols: screen.cols,
      rows: screen.rows,
      title: screen.title,
      viewport: screen.viewport,
      history_bytes: history.bytes,
      history_lines: history.lines,
      saved_at: new Date().toISOString(),
    };
    const json = encoder.encode(JSON.stringify(record));
    writeFileAtomic(this.#screenFile(pane), json, { mode: 0o600, sync: false });
    return { history, bytes: text.length + json.length };
  }

  /**
   * Reads a pane's saved screen, or `undefined` when there is none. A file
   * that cannot be read whole or is not a saved screen is ignored, with one
   * line in the log.
   */
  load(pane: string): { screen: SavedScreen; history: HistoryCount } | undefined {
    const screenFile = this.#screenFile(pane);
    let raw: Uint8Array;
    try {
      raw = Deno.readFileSync(screenFile);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      this.#options.log(`pane ${pane}: cannot read its saved screen (${error}); it starts without`);
      return undefined;
    }
    try {
      if (raw.length > MAX_SCREEN_FILE_BYTES) throw new Error(`${raw.length} bytes is too large`);
      const record: unknown = JSON.parse(decoder.decode(raw));
      if (!isScreenFile(record) || record.pane !== pane) throw new Error("not a saved screen");
      let history = "";
      if (record.history_bytes > 0) {
        if (record.history_bytes > MAX_HISTORY_BYTES * 2) {
          throw new Error("its history is too large");
        }
        const bytes = Deno.readFileSync(this.#historyFile(pane));
        if (bytes.length < record.history_bytes) {
          throw new Error(`its history has ${bytes.length} of ${record.history_bytes} bytes`);
        }
        history = decoder.decode(bytes.subarray(0, record.history_bytes));
      }
      return {
        screen: {
          cols: record.cols,
          rows: record.rows,
          title: record.title,
          viewport: record.viewport,
          history,
        },
        history: { bytes: record.history_bytes, lines: record.history_lines },
      };
    } catch (error) {
      this.#options.log(
        `pane ${pane}: its saved screen in ${screenFile} is unreadable (${
          (error as Error)?.message ?? error
        }); it starts without`,
      );
      return undefined;
    }
  }

  /** Removes a pane's saved screen. */
  remove(pane: string): void {
    for (const file of [this.#screenFile(pane), this.#historyFile(pane)]) {
      try {
        Deno.removeSync(file);
      } catch {
        // Not saved, or gone already.
      }
    }
  }

  /**
   * Removes the saved screens of panes not in `keep` (killed while no skiffd
   * could remove them), and temporary files of writes a crash cut off.
   */
  prune(keep: ReadonlySet<string>): void {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(this.#dir)];
    } catch {
      return;
    }
    for (const entry of entries) {
      const match = /^(p\d+)\.(screen|history)(\.tmp-.*)?$/.exec(entry.name);
      if (!match || (keep.has(match[1]) && !match[3])) continue;
      try {
        Deno.removeSync(join(this.#dir, entry.name));
      } catch {
        // Someone else's, or gone.
      }
    }
  }
}
