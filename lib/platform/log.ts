/**
 * A log of one timestamped line per action, such as skiffd's and the
 * watcher's beside the socket.
 *
 * @module
 */

/** Roll the log over once it passes this size. */
const MAX_LOG_BYTES = 5 << 20;

/** Appends one timestamped line to a log; `close` closes its file. */
export type LogWriter = ((line: string) => void) & { close(): void };

/** Opens the log at `path` and returns a function that appends one line. */
export function openLog(path: string): LogWriter {
  try {
    if (Deno.statSync(path).size > MAX_LOG_BYTES) Deno.renameSync(path, `${path}.1`);
  } catch {
    // No log yet.
  }
  const file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  const encoder = new TextEncoder();
  const write = (line: string) => {
    try {
      file.writeSync(encoder.encode(`${new Date().toISOString()} ${line}\n`));
    } catch {
      // A full disk must not take the daemon down.
    }
  };
  return Object.assign(write, {
    close: () => {
      try {
        file.close();
      } catch {
        // Closed already.
      }
    },
  });
}
