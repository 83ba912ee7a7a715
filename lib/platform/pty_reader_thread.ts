/**
 * The program of the thread that reads pseudo-terminals (see
 * `pty_reader.ts`), and how the event loop tells it what to do.
 *
 * The thread never returns to its own event loop: it waits in `poll(2)`.
 * So commands do not come as messages but through a ring in shared memory
 * ({@linkcode COMMAND_RING}), read after every poll; a command that must
 * take effect at once is followed by a byte on the wake pipe, which ends the
 * wait. Output goes the other way as messages ({@linkcode Report}).
 *
 * The worker runs {@linkcode readerThread} from its source text, so the
 * function uses nothing from outside its own body.
 *
 * @module
 */

/** What a command asks. */
export const OP = {
  watch: 1,
  pause: 2,
  resume: 3,
  finish: 4,
  stop: 5,
  sync: 6,
  watchPaused: 7,
  ack: 8,
} as const;

/**
 * The most bytes of one source the thread posts before the event loop has
 * taken them in (the `ack` command gives them back): an event loop held up
 * for seconds (a long synchronous task) must not find megabytes of a flood
 * waiting for it, read while it could not say pause.
 */
export const POSTED_BYTES = 256 << 10;

/**
 * The command ring's layout, in 32-bit words: the count of commands written
 * (by the event loop), the count read (by the thread), then `size` slots of
 * three words each: the op, the source's id, and (for `watch`) the
 * descriptor to read or (for `ack`) the bytes taken in.
 */
export const COMMAND_RING = { written: 0, read: 1, slots: 2, size: 16384, words: 3 } as const;

/** The message that starts the thread. */
export interface Start {
  /** The read end of the wake pipe. */
  wakeFd: number;
  /** The command ring (see {@linkcode COMMAND_RING}). */
  ring: SharedArrayBuffer;
  /** The most bytes of a source posted ahead of the event loop ({@linkcode POSTED_BYTES}). */
  mostPosted: number;
  /**
   * The fault switch (see {@linkcode READER_FAULT_ENV}): the thread throws,
   * as a bug would, when it is about to read for the `failAt`-th time.
   */
  failAt?: number;
}

/**
 * The fault switch of the reader thread, for tests: `SKIFF_FAULT_PTY_READER=N`
 * makes the thread fail before its N-th read of a source, so that panes go
 * back to being read by the event loop in the middle of their output.
 */
export const READER_FAULT_ENV = "SKIFF_FAULT_PTY_READER";

/**
 * A message from the thread: output of a source, its end, or the answer to
 * a `sync` command (its id is the command's), posted after all output the
 * thread had read before it saw the command.
 */
export type Report =
  | { id: number; data: Uint8Array }
  | { id: number; end: true }
  | { id: number; sync: true };

/**
 * The thread's program: watches the sources it is told of, reads each that
 * has output (unless paused) up to one batch a round, and posts the bytes;
 * posts the end of a source at its end of file or error, or when told to
 * stop it.
 */
export function readerThread(): void {
  const libc = Deno.dlopen("libc.so.6", {
    read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
    poll: { parameters: ["buffer", "u64", "i32"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
  });
  // The constants of this module, repeated: this body may use nothing from outside.
  const WATCH = 1, PAUSE = 2, RESUME = 3, FINISH = 4, STOP = 5, SYNC = 6, WATCH_PAUSED = 7;
  const ACK = 8;
  const WRITTEN = 0, READ = 1, SLOTS = 2, SIZE = 16384, WORDS = 3;
  const EAGAIN = 11;
  const EINTR = 4;
  const POLLIN = 1;
  const BATCH = 64 << 10;
  interface Source {
    fd: number;
    paused: boolean;
    finishing: boolean;
    stopping: boolean;
    /** Bytes posted and not yet taken in by the event loop. */
    posted: number;
  }
  /** Whether the thread reads `source` now. */
  const reading = (source: Source) =>
    source.finishing || (!source.paused && source.posted < mostPosted);
  // The worker's global scope (this module is type-checked as a window's).
  const scope = self as unknown as {
    postMessage(message: Report, transfer?: Transferable[]): void;
    onmessage: ((event: MessageEvent<Start>) => void) | null;
  };
  const sources = new Map<number, Source>();
  const buffer = new Uint8Array(BATCH);
  const wakeBuffer = new Uint8Array(64);
  let reads = 0;
  let failAt = 0;
  let mostPosted = 0;
  const errno = () => new Deno.UnsafePointerView(libc.symbols.__errno_location()!).getInt32();

  const end = (id: number, source: Source) => {
    libc.symbols.close(source.fd);
    sources.delete(id);
    scope.postMessage({ id, end: true });
  };

  /** Reads what `source` has, up to one batch; ends it at end of file or on an error. */
  const drain = (id: number, source: Source) => {
    if (++reads === failAt) throw new Error(`failed on purpose before read ${reads}`);
    let used = 0;
    let ended = false;
    while (used < BATCH) {
      const n = Number(libc.symbols.read(source.fd, buffer.subarray(used), BigInt(BATCH - used)));
      if (n > 0) {
        used += n;
        continue;
      }
      if (n < 0) {
        const code = errno();
        if (code === EAGAIN) break;
        if (code === EINTR) continue;
      }
      // 0 or an error (EIO once the program and everything on its terminal are gone).
      ended = true;
      break;
    }
    if (used > 0) {
      const chunk = buffer.slice(0, used);
      source.posted += used;
      scope.postMessage({ id, data: chunk }, [chunk.buffer]);
    }
    if (ended) end(id, source);
  };

  /** Applies the commands written since the last call. */
  const obey = (ring: Int32Array<SharedArrayBuffer>) => {
    let next = Atomics.load(ring, READ);
    const written = Atomics.load(ring, WRITTEN);
    for (; next !== written; next = (next + 1) | 0) {
      const slot = SLOTS + ((next >>> 0) % SIZE) * WORDS;
      const [op, id, fd] = [ring[slot], ring[slot + 1], ring[slot + 2]];
      if (op === WATCH || op === WATCH_PAUSED) {
        sources.set(id, {
          fd,
          paused: op === WATCH_PAUSED,
          finishing: false,
          stopping: false,
          posted: 0,
        });
        continue;
      }
      if (op === SYNC) {
        scope.postMessage({ id, sync: true });
        continue;
      }
      const source = sources.get(id);
      if (!source) continue;
      if (op === PAUSE) source.paused = true;
      if (op === RESUME) source.paused = false;
      if (op === FINISH) source.finishing = true;
      if (op === STOP) source.stopping = true;
      if (op === ACK) source.posted = Math.max(0, source.posted - fd);
    }
    Atomics.store(ring, READ, next);
  };

  const run = (wakeFd: number, ring: Int32Array<SharedArrayBuffer>) => {
    for (;;) {
      obey(ring);
      // A stopped source is let go only here, while no poll holds its descriptor.
      for (const [id, source] of sources) if (source.stopping) end(id, source);
      const watched = [...sources].filter(([, s]) => reading(s));
      const fds = new Uint8Array(8 * (watched.length + 1));
      const view = new DataView(fds.buffer);
      // struct pollfd { int fd; short events; short revents; }
      view.setInt32(0, wakeFd, true);
      view.setInt16(4, POLLIN, true);
      watched.forEach(([, source], i) => {
        view.setInt32(8 * (i + 1), source.fd, true);
        view.setInt16(8 * (i + 1) + 4, POLLIN, true);
      });
      if (libc.symbols.poll(fds, BigInt(watched.length + 1), -1) <= 0) continue;
      if (view.getInt16(6, true) !== 0) {
        while (Number(libc.symbols.read(wakeFd, wakeBuffer, BigInt(wakeBuffer.length))) > 0) {
          // Emptied: one wake stands for any number of commands.
        }
      }
      // Commands written during the poll count before any read: a source paused
      // meanwhile keeps its output in the kernel.
      obey(ring);
      watched.forEach(([id, source], i) => {
        if (view.getInt16(8 * (i + 1) + 6, true) === 0) return;
        if (sources.get(id) !== source || source.stopping) return;
        if (!reading(source)) return;
        drain(id, source);
      });
    }
  };

  // The start comes as the one message; from then on the thread stays in `run`.
  scope.onmessage = (event) => {
    failAt = event.data.failAt ?? 0;
    mostPosted = event.data.mostPosted;
    run(event.data.wakeFd, new Int32Array(event.data.ring));
  };
}
