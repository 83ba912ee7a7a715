/**
 * Telling, cheaply, whether the ledger may have changed: for a process that
 * follows it, such as the app. The stamp is read from the file system alone,
 * without opening the ledger: SQLite's locks belong to the whole process, so
 * a follower that opened the file itself could take a lock away from another
 * connection of its process.
 *
 * A commit writes frames to `ledger.db-wal` (or, when its connection is the
 * last to close, moves them into `ledger.db` and removes the `-wal`), so the
 * stamp follows both files' identity, size, time and mode. A reader makes an
 * empty `-wal` at most, which counts as none: a follower that reads the
 * ledger again after each change does not wake itself up.
 *
 * @module
 */

/** The size of a WAL file's header: a `-wal` no longer than this holds no commit. */
const WAL_HEADER_BYTES = 32;

function fileStamp(path: string, emptyBelow = 0): string {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return error instanceof Deno.errors.NotFound
      ? "none"
      : `unreadable:${(error as Error).message}`;
  }
  if (info.isFile && info.size <= emptyBelow) return "none";
  return `${
    info.isFile ? "file" : "other"
  }:${info.ino}:${info.size}:${info.mtime?.getTime()}:${info.mode}`;
}

/**
 * The ledger's stamp: it changes whenever what a reader of the ledger at
 * `path` sees may have changed (and now and then when it did not, such as
 * when a reader moves the `-wal` into the file). `none|none` when there is
 * no ledger.
 */
export function ledgerStamp(path: string): string {
  return `${fileStamp(path)}|${fileStamp(`${path}-wal`, WAL_HEADER_BYTES)}`;
}
