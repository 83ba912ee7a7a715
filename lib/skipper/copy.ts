/**
 * Copying the Skiff agent's folder for `--move-to`, and checking the copy
 * before anything switches to it. Files, folders and links are copied as
 * they are; the ledger is copied through SQLite, so a copy taken while it is
 * in use is still whole.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";

/** The files of a live ledger that are not copied byte for byte. */
const LEDGER_FILES = new Set(["ledger.db", "ledger.db-wal", "ledger.db-shm"]);

/** What a copy held. */
export interface CopyReport {
  /** Files copied (the ledger not counted). */
  files: number;
  /** Folders made. */
  folders: number;
  /** Links copied. */
  links: number;
  /** Rows in the copied ledger, or null when there was no ledger. */
  ledgerRows: number | null;
}

function copyTree(from: string, to: string, top: boolean, report: CopyReport): void {
  for (const entry of Deno.readDirSync(from)) {
    if (top && LEDGER_FILES.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isSymlink) {
      Deno.symlinkSync(Deno.readLinkSync(source), target);
      report.links++;
    } else if (entry.isDirectory) {
      Deno.mkdirSync(target, { mode: Deno.statSync(source).mode ?? 0o755 });
      report.folders++;
      copyTree(source, target, false, report);
    } else if (entry.isFile) {
      Deno.copyFileSync(source, target);
      report.files++;
    }
    // Sockets and pipes are not files anyone keeps; they are left behind.
  }
}

function ledgerRows(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM tasks").get() as { n: number };
    return Number(row.n);
  } finally {
    db.close();
  }
}

/**
 * Copies folder `from` into the empty folder `to`: every file, folder and
 * link, and `ledger.db` as a consistent snapshot (`VACUUM INTO`).
 */
export function copyFolder(from: string, to: string): CopyReport {
  const report: CopyReport = { files: 0, folders: 0, links: 0, ledgerRows: null };
  copyTree(from, to, true, report);
  const ledger = join(from, "ledger.db");
  let exists = false;
  try {
    exists = Deno.statSync(ledger).isFile;
  } catch {
    // No ledger yet.
  }
  if (exists) {
    const db = new DatabaseSync(ledger, { readOnly: true });
    try {
      db.exec(`VACUUM INTO '${join(to, "ledger.db").replaceAll("'", "''")}'`);
    } finally {
      db.close();
    }
    report.ledgerRows = ledgerRows(join(to, "ledger.db"));
  }
  return report;
}

function sameBytes(a: string, b: string): boolean {
  const x = Deno.readFileSync(a);
  const y = Deno.readFileSync(b);
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

function checkTree(from: string, to: string, top: boolean, problems: string[]): void {
  for (const entry of Deno.readDirSync(from)) {
    if (top && LEDGER_FILES.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(target);
    } catch {
      problems.push(`${target} is missing`);
      continue;
    }
    if (entry.isSymlink) {
      if (!info.isSymlink || Deno.readLinkSync(target) !== Deno.readLinkSync(source)) {
        problems.push(`${target} is not the same link`);
      }
    } else if (entry.isDirectory) {
      if (!info.isDirectory) problems.push(`${target} is not a folder`);
      else checkTree(source, target, false, problems);
    } else if (entry.isFile) {
      if (!info.isFile || !sameBytes(source, target)) problems.push(`${target} differs`);
    }
  }
}

/**
 * Checks that `to` holds everything `from` holds, byte for byte, and that
 * the copied ledger is whole and has as many rows as the original. Throws
 * exit `DATA` naming the first problem.
 */
export function checkCopy(from: string, to: string): void {
  const problems: string[] = [];
  checkTree(from, to, true, problems);
  const original = join(from, "ledger.db");
  let hasLedger = false;
  try {
    hasLedger = Deno.statSync(original).isFile;
  } catch {
    // No ledger to check.
  }
  if (hasLedger) {
    const copy = join(to, "ledger.db");
    try {
      const db = new DatabaseSync(copy, { readOnly: true });
      try {
        const check = db.prepare("PRAGMA integrity_check").get() as Record<string, string>;
        if (Object.values(check)[0] !== "ok") problems.push(`${copy} fails its integrity check`);
      } finally {
        db.close();
      }
      if (ledgerRows(copy) !== ledgerRows(original)) {
        problems.push(`${copy} does not have the rows of ${original}`);
      }
    } catch (error) {
      problems.push(`${copy} cannot be read: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) {
    throw new SkiffError(`The copy is not whole: ${problems[0]}`, {
      exit: "DATA",
      details: { problems },
    });
  }
}
