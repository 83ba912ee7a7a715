/**
 * A log of one timestamped line per action, such as skiffd's and the
 * watcher's beside the socket.
 *
 * @module
 */

/** Roll the log over once it passes this size. */
const MAX_LOG_BYTES = 5 << 20;

/** Opens the log at `path` and returns a function that appends one line. */
export function openLog(path: string): (line: string) => void {
  try {
    if (Deno.statSync(path).size > MAX_LOG_BYTES) Deno.renameSync(path, `${path}.1`);
  } catch {
    // No log yet.
  }
  const file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  const encoder = new TextEncoder();
  return (line: string) => {
    try {
      file.writeSync(encoder.encode(`${new Date().toISOString()} ${line}\n`));
    } catch {
      // A full disk must not take the daemon down.
    }
  };
}
