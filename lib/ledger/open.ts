/**
 * Finding and opening the ledger.
 *
 * {@linkcode openLedger} never changes a file that is not a Skiff ledger of a
 * version it knows: a file that is not SQLite, a SQLite database with other
 * tables, or a ledger from a newer Skiff gives one error line (exit `DATA`)
 * and stays byte for byte as it was.
 *
 * @module
 */

import { dirname, join, resolve } from "../platform/path.ts";
import { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { defaultAgentFolder, expandHome } from "../config/paths.ts";
import { configure, DEFAULT_TIMEOUT_MS, guarded, immediate, useWal } from "./db.ts";
import { type ImportReport, insertMdRows, type MdRow, parseLedgerMd } from "./import_md.ts";
import { Ledger } from "./ledger.ts";
import { migrate, type Migration } from "./migrate.ts";
import { createSchema, LEDGER_VERSION, readShape, type Shape } from "./schema.ts";

/** The name of the ledger file in the agent's folder. */
export const LEDGER_FILE = "ledger.db";

/** The name of the old Markdown ledger, read once when `ledger.db` is made. */
export const LEDGER_MD_FILE = "ledger.md";

/** Options for {@linkcode ledgerPath}. */
export interface LedgerPathOptions {
  /** The Skiff agent's folder. Defaults to `~/skiff-agent`. */
  folder?: string;
}

/**
 * The ledger's path: `SKIFF_LEDGER` when it is set and not empty, else
 * `ledger.db` in the agent's folder. A leading `~` is expanded, and a relative
 * path is made absolute against the current folder.
 */
export function ledgerPath(options: LedgerPathOptions = {}): string {
  const explicit = Deno.env.get("SKIFF_LEDGER");
  if (explicit) return resolve(expandHome(explicit));
  return resolve(expandHome(options.folder ?? defaultAgentFolder()), LEDGER_FILE);
}

/** Options for {@linkcode openLedger}. */
export interface OpenOptions {
  /** How long, in ms, to wait for a lock that another process holds. Defaults to 10000. */
  timeout?: number;
  /** Gives the current time. Defaults to the clock; tests pass a fixed date. */
  now?: () => Date;
  /** The folder that relative result paths given by callers are resolved against. */
  cwd?: string;
  /**
   * Whether a missing ledger is made (default true). With `false`, a missing
   * ledger opens as an empty one held in memory (with the rows of a
   * `ledger.md` beside it, if any), and nothing is written: reading a ledger
   * that does not exist creates nothing.
   */
  create?: boolean;
}

const MAGIC = "SQLite format 3\0";

/** What `stat` says about `path`, or `null` when it cannot tell (like node's `existsSync`). */
function statOrNull(path: string): Deno.FileInfo | null {
  // Deno's own calls: loading node:fs costs a CLI call about 14 ms.
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

function dataError(message: string, path: string): SkiffError {
  return new SkiffError(message, { exit: "DATA", details: { path } });
}

/** Checks, by its first bytes, that an existing file can be a SQLite database. */
function checkHeader(path: string, size: number): void {
  const file = Deno.openSync(path, { read: true });
  try {
    const head = new Uint8Array(MAGIC.length);
    const read = size >= MAGIC.length ? file.readSync(head) : 0;
    if (read !== MAGIC.length || new TextDecoder().decode(head) !== MAGIC) {
      throw dataError(`${path} is not a Skiff ledger: it is not a SQLite file`, path);
    }
  } finally {
    file.close();
  }
}

/** Reads and checks `ledger.md` beside the ledger, or returns `null` when there is none. */
function readLedgerMd(path: string): { file: string; rows: MdRow[] } | null {
  const file = join(dirname(path), LEDGER_MD_FILE);
  let bytes: Uint8Array;
  try {
    if (!Deno.statSync(file).isFile) return null;
    bytes = Deno.readFileSync(file);
  } catch (error) {
    // Gone: there was none, or another process imported it just now.
    if (error instanceof Deno.errors.NotFound) return null;
    throw new SkiffError(`Cannot read ${file}`, { exit: "DATA", details: { file }, cause: error });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SkiffError(`Cannot import ${file}: it is not readable UTF-8 text`, {
      exit: "DATA",
      details: { file },
      cause: error,
    });
  }
  return { file, rows: parseLedgerMd(text, file) };
}

/** Renames an imported `ledger.md` to `ledger.md.bak` (or `.bak.2`, … if that is taken). */
function keepBackup(file: string): string | null {
  let backup = `${file}.bak`;
  for (let n = 2; statOrNull(backup); n++) backup = `${file}.bak.${n}`;
  try {
    Deno.renameSync(file, backup);
    return backup;
  } catch {
    return null;
  }
}

/** An empty ledger in memory that stands for the missing file at `path`. */
function memoryLedger(
  path: string,
  md: { file: string; rows: MdRow[] } | null,
  now: () => Date,
  cwd: string | undefined,
): Ledger {
  const db = new DatabaseSync(":memory:");
  immediate(db, path, () => {
    createSchema(db);
    if (md) insertMdRows(db, md.rows, now());
  });
  return new Ledger(db, path, { now, cwd: cwd ?? Deno.cwd(), imported: null, migrated: null });
}

/**
 * An empty ledger in memory that stands for the one `openLedger` would make
 * at `path` (with the rows of a `ledger.md` beside it), to try a command on
 * before the file is made. It never opens the file, even when another
 * process has made it since.
 */
export function rehearsalLedger(path: string, options: OpenOptions = {}): Ledger {
  const abs = resolve(path);
  return memoryLedger(abs, readLedgerMd(abs), options.now ?? (() => new Date()), options.cwd);
}

/**
 * Opens the ledger at `path`, making the file (and its folder) if it is missing.
 *
 * - No file yet (or an empty one): a new ledger of the current version. If `ledger.md`
 *   lies beside it, its rows are imported in the same transaction, and the
 *   file is then renamed to `ledger.md.bak`. A malformed `ledger.md` stops
 *   the open (exit `DATA`, naming `file:line`) before anything is made.
 * - A version 1, 2, 3 or 4 ledger changes to the current version (5) in one
 *   transaction, keeping every row.
 * - A version 5 ledger opens as it is.
 * - Anything else is refused with exit `DATA` and left untouched.
 *
 * A lock held by another process past `timeout` gives exit `DATA`. With
 * `create: false`, a missing ledger opens empty, in memory (see
 * {@linkcode OpenOptions.create}).
 */
export function openLedger(path: string, options: OpenOptions = {}): Ledger {
  const abs = resolve(path);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const info = statOrNull(abs);
  if (info?.isDirectory) throw dataError(`${abs} is a folder, not a ledger file`, abs);
  if (info && info.size > 0) checkHeader(abs, info.size);
  let md = info ? undefined : readLedgerMd(abs);
  if (!info && options.create === false) return memoryLedger(abs, md ?? null, now, options.cwd);
  try {
    Deno.mkdirSync(dirname(abs), { recursive: true });
  } catch (error) {
    throw new SkiffError(`Cannot make the ledger's folder ${dirname(abs)}`, {
      exit: "DATA",
      details: { path: abs },
      cause: error,
    });
  }
  const db = guarded(abs, () => new DatabaseSync(abs, { timeout }));
  try {
    guarded(abs, () => configure(db, timeout));
    let shape: Shape = guarded(abs, () => readShape(db, abs));
    if (shape === "empty" && md === undefined) md = readLedgerMd(abs);
    let imported: ImportReport | null = null;
    if (shape === "empty") {
      guarded(abs, () => useWal(db, timeout));
      const made = immediate(db, abs, () => {
        shape = readShape(db, abs);
        if (shape !== "empty") return false;
        createSchema(db);
        if (md) insertMdRows(db, md.rows, now());
        shape = LEDGER_VERSION;
        return true;
      });
      if (made && md) {
        imported = { from: md.file, rows: md.rows.length, backup: keepBackup(md.file) };
      }
    }
    let migrated: Migration | null = null;
    if (shape === 1 || shape === 2 || shape === 3 || shape === 4) {
      migrated = migrate(db, abs, now());
    }
    guarded(abs, () => useWal(db, timeout));
    return new Ledger(db, abs, { now, cwd: options.cwd ?? Deno.cwd(), imported, migrated });
  } catch (error) {
    db.close();
    throw error;
  }
}
