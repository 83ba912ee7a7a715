/**
 * Reading pseudo-terminals on a thread of their own (Linux).
 *
 * The kernel hands a PTY's output on 4 KB at a time, and its work of moving
 * the next 4 KB runs on the core of the process that reads. When skiffd's
 * event loop read a pane between parsing it into the screen, nobody read
 * while it parsed, and that kernel work waited behind the parser: reading
 * and parsing took turns, and one pane's output came at about half the
 * speed the kernel can deliver. Here one worker reads every PTY master as
 * soon as it has output, up to 64 KB per source and round, and posts the
 * bytes to the event loop, which parses them while the next are read. It
 * posts at most `POSTED_BYTES` of a source that the event loop has not
 * taken in yet, so a flood cannot pile up while the event loop is held.
 *
 * The worker reads a duplicate of each master, so the descriptor it reads
 * never closes under it. A source paused (for fairness) is not read, so its
 * program blocks on write, as before. The worker runs from the source text
 * of `readerThread` (`pty_reader_thread.ts`), so `deno compile` and the npm
 * bundle need no file of their own for it. If the thread fails, panes go
 * back to being read by the event loop.
 *
 * @module
 */

import {
  COMMAND_RING,
  OP,
  POSTED_BYTES,
  READER_FAULT_ENV,
  readerThread,
  type Report,
  type Start,
} from "./pty_reader_thread.ts";

/** Where a source's output goes. */
export interface PtySink {
  /** Output bytes, in order. */
  data(chunk: Uint8Array): void;
  /** The source ended (end of file, an error such as EIO, or a stop); nothing follows. */
  end(): void;
  /**
   * The thread failed (a bug): nothing more comes from it, and the owner
   * reads the descriptor itself. A batch read but not posted is lost.
   */
  lost(): void;
}

/** A PTY master the reader watches. */
export interface PtySource {
  /** Stops reading it until {@linkcode PtySource.resume}. */
  pause(): void;
  /** Reads it again. */
  resume(): void;
  /** Reads it to its end even while paused: its program has exited. */
  finish(): void;
  /** Stops reading it for good; its sink gets `end` once the worker let go. */
  stop(): void;
}

interface Libc {
  fcntl(fd: number, command: number, arg: number): number;
  pipe2(fds: Int32Array, flags: number): number;
  write(fd: number, data: Uint8Array, length: bigint): number | bigint;
}

const F_DUPFD_CLOEXEC = 1030;
const O_NONBLOCK = 0o4000;
const O_CLOEXEC = 0o2000000;

/** Watches PTY masters on the reader thread. */
export class PtyReader {
  readonly #libc: Libc;
  readonly #worker: Worker;
  readonly #wakeFd: number;
  readonly #ring = new Int32Array(
    new SharedArrayBuffer(4 * (COMMAND_RING.slots + COMMAND_RING.size * COMMAND_RING.words)),
  );
  readonly #sinks = new Map<number, PtySink>();
  readonly #syncs = new Map<number, () => void>();
  /** Bytes of each source taken in and not yet told to the thread. */
  readonly #taken = new Map<number, number>();
  readonly #one = new Uint8Array([1]);
  #next = 1;

  private constructor(libc: Libc, worker: Worker, wakeFd: number) {
    this.#libc = libc;
    this.#worker = worker;
    this.#wakeFd = wakeFd;
    worker.onerror = (event) => {
      // Unhandled, a worker's error would end this process and every pane with it.
      event.preventDefault();
      report(`the PTY reader thread failed, panes are read as before: ${event.message}`);
      this.#failed();
    };
    worker.onmessage = (event: MessageEvent<Report>) => {
      const report = event.data;
      if ("sync" in report) {
        this.#syncs.get(report.id)?.();
        this.#syncs.delete(report.id);
        return;
      }
      const sink = this.#sinks.get(report.id);
      if (!sink) return;
      if ("end" in report) {
        this.#sinks.delete(report.id);
        this.#taken.delete(report.id);
        sink.end();
      } else {
        this.#took(report.id, report.data.length);
        sink.data(report.data);
      }
    };
  }

  #failed(): void {
    if (shared === this) shared = null;
    this.#worker.terminate();
    for (const done of this.#syncs.values()) done();
    this.#syncs.clear();
    const sinks = [...this.#sinks.values()];
    this.#sinks.clear();
    for (const sink of sinks) sink.lost();
  }

  /** Starts the reader thread, or returns `null` where it cannot run (not Linux, no FFI). */
  static start(): PtyReader | null {
    if (Deno.build.os !== "linux") return null;
    try {
      const lib = Deno.dlopen("libc.so.6", {
        fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
        pipe2: { parameters: ["buffer", "i32"], result: "i32" },
        write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
      });
      const libc: Libc = lib.symbols;
      const pipe = new Int32Array(2);
      if (libc.pipe2(pipe, O_NONBLOCK | O_CLOEXEC) !== 0) return null;
      // A bundle that keeps function names (`deno bundle --keep-names`) wraps the
      // function's inner functions in its `__name` helper, which the worker lacks.
      const source = `var __name = (target) => target;\n(${readerThread.toString()})();`;
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      const worker = new Worker(url, { type: "module" });
      URL.revokeObjectURL(url);
      const reader = new PtyReader(libc, worker, pipe[1]);
      const failAt = Number(Deno.env.get(READER_FAULT_ENV) ?? 0);
      const start: Start = {
        wakeFd: pipe[0],
        ring: reader.#ring.buffer,
        mostPosted: POSTED_BYTES,
        ...(Number.isInteger(failAt) && failAt > 0 ? { failAt } : {}),
      };
      worker.postMessage(start);
      return reader;
    } catch (error) {
      report(`the PTY reader thread cannot start, panes are read as before: ${error}`);
      return null;
    }
  }

  /**
   * Counts `bytes` of source `id` as taken in, and tells the thread once
   * they are half of what it may post ahead ({@linkcode POSTED_BYTES}), with
   * a wake: it may have left the source out of its wait. Half is enough: a
   * thread that stopped has more than the other half on its way here, so
   * the next word is sure to come. A word for every batch would wake the
   * thread thousands of times a second under floods.
   */
  #took(id: number, bytes: number): void {
    const taken = (this.#taken.get(id) ?? 0) + bytes;
    if (taken < POSTED_BYTES / 2) {
      this.#taken.set(id, taken);
      return;
    }
    this.#taken.set(id, 0);
    this.#send(OP.ack, id, taken);
  }

  /** Writes a command into the ring; with `wake`, ends the thread's wait for it. */
  #send(op: number, id: number, fd = -1, wake = true): void {
    const ring = this.#ring;
    const written = Atomics.load(ring, COMMAND_RING.written);
    // Full only if the thread stopped reading commands, which it does after every poll.
    while (((written - Atomics.load(ring, COMMAND_RING.read)) | 0) >= COMMAND_RING.size) {
      this.#libc.write(this.#wakeFd, this.#one, 1n);
      Atomics.wait(ring, COMMAND_RING.read, Atomics.load(ring, COMMAND_RING.read), 10);
    }
    const slot = COMMAND_RING.slots + ((written >>> 0) % COMMAND_RING.size) * COMMAND_RING.words;
    ring[slot] = op;
    ring[slot + 1] = id;
    ring[slot + 2] = fd;
    Atomics.store(ring, COMMAND_RING.written, (written + 1) | 0);
    // A full pipe already holds a wake, so a failed write loses nothing.
    if (wake) this.#libc.write(this.#wakeFd, this.#one, 1n);
  }

  /**
   * Resolves once every batch the thread read before this call has reached
   * its sink: with sources paused first, nothing of theirs is on its way
   * after it (`skiff daemon upgrade` waits on this before it hands over).
   */
  sync(): Promise<void> {
    return new Promise((resolve) => {
      const id = this.#next++;
      this.#syncs.set(id, resolve);
      this.#send(OP.sync, id);
    });
  }

  /**
   * Reads `fd` (a PTY master, left open for its owner) into `sink` until it
   * ends; with `paused`, only from its first resume. Returns `null` when the
   * descriptor cannot be duplicated.
   */
  watch(fd: number, sink: PtySink, options: { paused?: boolean } = {}): PtySource | null {
    const copy = this.#libc.fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (copy < 0) return null;
    const id = this.#next++;
    this.#sinks.set(id, sink);
    // A paused source is not polled, so the thread need not wake for it.
    this.#send(options.paused ? OP.watchPaused : OP.watch, id, copy, !options.paused);
    return {
      // A pause needs no wake: the thread sees it before it reads again.
      pause: () => this.#send(OP.pause, id, -1, false),
      resume: () => this.#send(OP.resume, id),
      finish: () => this.#send(OP.finish, id),
      stop: () => this.#send(OP.stop, id),
    };
  }
}

let shared: PtyReader | null | undefined;

/** Where the reader says it failed: skiffd's log once it is given (see {@linkcode ptyReader}). */
let report = (line: string) => console.error(`skiff: ${line}`);

/** Options for {@linkcode ptyReader}. */
export interface PtyReaderOptions {
  /** Where to write the line that says the thread failed or cannot start. */
  log?: (line: string) => void;
}

/** The process's reader thread, started on first use; `null` where it cannot run. */
export function ptyReader(options: PtyReaderOptions = {}): PtyReader | null {
  if (options.log) report = options.log;
  if (shared === undefined) shared = PtyReader.start();
  return shared;
}
