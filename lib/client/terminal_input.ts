/**
 * The keys typed in this process's terminal, read by one reader for the
 * whole process.
 *
 * A read of stdin cannot be taken back once it started: whatever the
 * person types next goes to it. A loop that stopped caring (an attach that
 * ended, a view that closed) would take those keys with it. Here a read
 * that nobody waits for any more keeps what it got for the next one who
 * asks, so no key is lost between readers.
 *
 * @module
 */

const BUFFER_SIZE = 16 * 1024;

/** Chunks read that nobody took yet; `null` is the end of input. */
const waiting: (Uint8Array | null)[] = [];
let reading = false;
let taker: ((chunk: Uint8Array | null) => void) | undefined;
let source: { read(buffer: Uint8Array): Promise<number | null> } = Deno.stdin;

function readMore(): void {
  if (reading) return;
  reading = true;
  const buffer = new Uint8Array(BUFFER_SIZE);
  source.read(buffer).then(
    (n) => n === null ? null : buffer.slice(0, n),
    () => null,
  ).then((chunk) => {
    reading = false;
    const take = taker;
    taker = undefined;
    if (take) take(chunk);
    else waiting.push(chunk);
  });
}

/**
 * The next keys typed (as the terminal sent them), or `null` at the end of
 * input. Only one caller may wait at a time. When `signal` aborts, the wait
 * ends with `undefined` and the keys it would have got stay for the next
 * caller.
 */
export function nextTerminalInput(
  options: { signal?: AbortSignal } = {},
): Promise<Uint8Array | null | undefined> {
  if (waiting.length > 0) return Promise.resolve(waiting.shift()!);
  if (options.signal?.aborted) return Promise.resolve(undefined);
  if (taker) throw new Error("Someone already waits for terminal input");
  return new Promise((resolve) => {
    const take = (chunk: Uint8Array | null) => resolve(chunk);
    taker = take;
    options.signal?.addEventListener("abort", () => {
      if (taker !== take) return;
      taker = undefined;
      resolve(undefined);
    }, { once: true });
    readMore();
  });
}

/** Puts keys back in front, for the next caller of {@linkcode nextTerminalInput}. */
export function unreadTerminalInput(chunk: Uint8Array): void {
  if (chunk.length > 0) waiting.unshift(chunk);
}

/**
 * Whether a read of the terminal is under way: a program started now (a
 * pager) would lose its first keys to it.
 */
export function terminalReadPending(): boolean {
  return reading;
}

/** Reads from `reader` instead of stdin (tests). */
export function setTerminalInputSource(
  reader: { read(buffer: Uint8Array): Promise<number | null> },
): void {
  source = reader;
}
