/**
 * The program of the thread that reads pseudo-terminals (see
 * `pty_reader.ts`), and the messages between it and the event loop.
 *
 * The worker runs {@linkcode readerThread} from its source text, so the
 * function uses nothing from outside its own body.
 *
 * @module
 */

/** A message to the worker. */
export type Command =
  | { op: "start"; wakeFd: number; posted: SharedArrayBuffer }
  | { op: "watch"; id: number; fd: number }
  | { op: "pause" | "resume" | "finish" | "stop"; id: number };

/** A message from the worker. */
export type Report = { id: number; data: Uint8Array } | { id: number; end: true };

/**
 * The worker's program: watches the sources it is told of, reads each that
 * has output (unless paused) up to one batch a round, and posts the bytes;
 * posts the end of a source at its end of file or error, or when told to
 * stop it. It runs from its source text, so it uses nothing from outside.
 */
export function readerThread(): void {
  const libc = Deno.dlopen("libc.so.6", {
    read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
    poll: { parameters: ["buffer", "u64", "i32"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
  });
  const EAGAIN = 11;
  const EINTR = 4;
  const POLLIN = 1;
  const BATCH = 64 << 10;
  interface Source {
    fd: number;
    paused: boolean;
    finishing: boolean;
    stopping: boolean;
  }
  // The worker's global scope (this module is type-checked as a window's).
  const scope = self as unknown as {
    postMessage(message: Report, transfer?: Transferable[]): void;
    onmessage: ((event: MessageEvent<Command>) => void) | null;
  };
  const sources = new Map<number, Source>();
  const buffer = new Uint8Array(BATCH);
  let wakeFd = -1;
  // How many commands the event loop posted (it counts them), and how many arrived here.
  let posted: Int32Array<ArrayBufferLike> = new Int32Array(1);
  let handled = 0;
  const errno = () => new Deno.UnsafePointerView(libc.symbols.__errno_location()!).getInt32();

  const end = (id: number, source: Source) => {
    libc.symbols.close(source.fd);
    sources.delete(id);
    scope.postMessage({ id, end: true });
  };

  /** Reads what `source` has, up to one batch; ends it at end of file or on an error. */
  const drain = (id: number, source: Source) => {
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
      scope.postMessage({ id, data: chunk }, [chunk.buffer]);
    }
    if (ended) end(id, source);
  };

  scope.onmessage = (event) => {
    const command = event.data;
    if (command.op === "start") {
      wakeFd = command.wakeFd;
      posted = new Int32Array(command.posted);
      return;
    }
    handled++;
    if (command.op === "watch") {
      sources.set(command.id, {
        fd: command.fd,
        paused: false,
        finishing: false,
        stopping: false,
      });
      return;
    }
    const source = sources.get(command.id);
    if (!source) return;
    if (command.op === "pause") source.paused = true;
    if (command.op === "resume") source.paused = false;
    if (command.op === "finish") source.finishing = true;
    if (command.op === "stop") source.stopping = true;
  };

  const loop = async () => {
    const wakeBuffer = new Uint8Array(64);
    for (;;) {
      // Every command whose wake was taken must be in force before the next poll,
      // or that poll could wait for a source that was resumed meanwhile.
      // Until the first command, the start, there is nothing to wait for.
      while (wakeFd < 0 || handled < Atomics.load(posted, 0)) {
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      // A stopped source is let go only here, while no poll holds its descriptor.
      for (const [id, source] of sources) if (source.stopping) end(id, source);
      const watched = [...sources].filter(([, s]) => !s.paused || s.finishing);
      const fds = new Uint8Array(8 * (watched.length + 1));
      const view = new DataView(fds.buffer);
      // struct pollfd { int fd; short events; short revents; }
      view.setInt32(0, wakeFd, true);
      view.setInt16(4, POLLIN, true);
      watched.forEach(([, source], i) => {
        view.setInt32(8 * (i + 1), source.fd, true);
        view.setInt16(8 * (i + 1) + 4, POLLIN, true);
      });
      // The poll blocks this thread, so no command arrives meanwhile: a command
      // that must take effect at once comes with a wake, which ends the wait.
      const ready = libc.symbols.poll(fds, BigInt(watched.length + 1), wakeFd < 0 ? 0 : -1);
      if (ready <= 0) continue;
      if (view.getInt16(6, true) !== 0) {
        while (Number(libc.symbols.read(wakeFd, wakeBuffer, BigInt(wakeBuffer.length))) > 0) {
          // Emptied: one wake stands for any number of commands.
        }
      }
      watched.forEach(([id, source], i) => {
        if (view.getInt16(8 * (i + 1) + 6, true) === 0) return;
        // Paused or stopped meanwhile: its output stays in the kernel.
        if (sources.get(id) !== source || source.stopping) return;
        if (source.paused && !source.finishing) return;
        drain(id, source);
      });
    }
  };
  loop();
}
