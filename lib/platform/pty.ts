/**
 * The PTY interface skiffd uses, and its first implementation on
 * `@lydell/node-pty`. The rest of the daemon sees only {@linkcode Pty}, so a
 * libc-FFI implementation can replace this one later. node-pty starts the
 * program and writes to it; on Linux its output is read by the reader
 * thread of `pty_reader.ts`, elsewhere by node-pty's stream.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";
import { ptyReader, type PtySource } from "./pty_reader.ts";

/** How a pane's process ended. */
export interface PtyExit {
  /** The exit code, or 0 when a signal ended it. */
  exitCode: number;
  /** The signal number that ended it, or 0. */
  signal: number;
  /**
   * Set when how it ended is not known: an adopted process (see
   * `pty_adopted.ts`) that ended in the instant of the exec in place.
   */
  unknown?: true;
}

/** A process on a pseudo-terminal. */
export interface Pty {
  /** The child's process id. */
  readonly pid: number;
  /**
   * The PTY master's descriptor, while it can be handed to another program
   * (`skiff daemon upgrade`): output is read only where a pause stops all
   * reading at once (the reader thread, or an adopted terminal).
   */
  readonly fd?: number;
  /** Sets the handler for output bytes. */
  onData(handler: (data: Uint8Array) => void): void;
  /** Sets the handler for the child's exit. */
  onExit(handler: (exit: PtyExit) => void): void;
  /** Writes input bytes to the terminal. */
  write(data: Uint8Array): void;
  /** Changes the terminal's size. */
  resize(cols: number, rows: number): void;
  /** Sends a signal to the child (default `SIGHUP`). */
  kill(signal?: string): void;
  /** Stops reading output, so the child blocks once the terminal's buffer is full. */
  pause(): void;
  /** Reads output again. */
  resume(): void;
}

/** Options for {@linkcode spawnPty}. */
export interface SpawnPtyOptions {
  /** The working folder. */
  cwd: string;
  /** The whole environment of the child. */
  env: Record<string, string>;
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
}

interface NodePtyModule {
  spawn(file: string, args: string[], options: Record<string, unknown>): NodePty;
}

interface NodePty {
  readonly pid: number;
  onData(listener: (data: Uint8Array) => void): unknown;
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): unknown;
  write(data: unknown): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  pause(): void;
  resume(): void;
  /** The master's descriptor (Unix). */
  readonly fd?: number;
  /** The master's read stream (private in node-pty). */
  _socket?: NodePtySocket;
}

/** The master's read stream, as far as this module uses it. */
interface NodePtySocket {
  destroy(error?: unknown): unknown;
  /** The stream's native handle, which reads the descriptor once started. */
  _handle?: { readStart(): number; readStop(): number };
}

/** How long a read stream may stay open after the child exited, as node-pty allows. */
const CLOSE_GRACE_MS = 200;

let nodePty: Promise<NodePtyModule> | undefined;

function loadNodePty(): Promise<NodePtyModule> {
  // Loaded on first use so commands that never spawn a pane do not pay for the addon.
  nodePty ??= import("@lydell/node-pty").then((m) => (m.default ?? m) as unknown as NodePtyModule);
  return nodePty;
}

/** Loads what starting a PTY needs (node-pty's addon), to find out early that it loads. */
export async function loadPtyModule(): Promise<void> {
  await loadNodePty();
}

/**
 * Starts `file` with `args` on a new pseudo-terminal.
 *
 * A program that cannot be started still yields a {@linkcode Pty}: it prints
 * why and exits with code 1, as a shell would.
 */
export async function spawnPty(
  file: string,
  args: string[],
  options: SpawnPtyOptions,
): Promise<Pty> {
  const module = await loadNodePty();
  // The program gets its terminal, not this process's sockets and other terminals.
  closeOnExec();
  const child = module.spawn(file, args, {
    name: options.env.TERM ?? "xterm-256color",
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: options.env,
    // Raw bytes: decoding here would split UTF-8 sequences at chunk edges.
    encoding: null,
  });
  const socket = child._socket;
  if (socket && child.fd !== undefined) {
    const threaded = readOnThread(child, socket);
    if (threaded) return threaded;
  }
  let paused = false;
  let ending = false;
  if (socket) {
    // node-pty destroys the read stream 200 ms after the child exits, to get
    // past platforms that never report its end. Output still in the kernel's
    // buffer then is lost, which happens when the stream was paused: read on
    // to the end first, and destroy only after the same grace.
    const destroy = socket.destroy.bind(socket);
    socket.destroy = (error?: unknown) => {
      if (!paused || ending) return destroy(error);
      ending = true;
      paused = false;
      child.resume();
      setTimeout(() => destroy(error), CLOSE_GRACE_MS);
      return socket;
    };
  }
  return {
    pid: child.pid,
    onData: (handler) => void child.onData(handler),
    onExit: (handler) =>
      void child.onExit((e) => handler({ exitCode: e.exitCode, signal: e.signal ?? 0 })),
    write: (data) => child.write(data),
    resize: (cols, rows) => child.resize(cols, rows),
    kill: (signal = "SIGHUP") => child.kill(signal),
    pause: () => {
      if (paused || ending) return;
      paused = true;
      child.pause();
    },
    resume: () => {
      if (!paused) return;
      paused = false;
      child.resume();
    },
  };
}

/**
 * Reads `child`'s output on the reader thread (see `pty_reader.ts`) instead
 * of with its own stream, which then never reads (it still writes). Returns
 * `null` where the thread cannot run; the stream reads then.
 *
 * The exit is told once the output has ended: the thread reads up to the
 * kernel's end of file (EIO once everything on the terminal is gone), and
 * then the stream is closed so that node-pty reports the exit at once. When
 * a program that outlives the child keeps the terminal open, node-pty
 * reports the exit after its grace; the thread then reads on, paused or
 * not, for as long again, and stops.
 */
function readOnThread(child: NodePty, socket: NodePtySocket): Pty | null {
  const reader = ptyReader();
  const handle = socket._handle;
  if (!reader || !handle) return null;
  let onData: ((data: Uint8Array) => void) | undefined;
  let onExit: ((exit: PtyExit) => void) | undefined;
  let exit: PtyExit | undefined;
  let ended = false;
  let told = false;
  /** Set when the thread failed: the stream reads, as without a thread. */
  let alone = false;
  const tell = () => {
    if (told || !ended || !exit) return;
    told = true;
    onExit?.(exit);
  };
  const source: PtySource | null = reader.watch(child.fd!, {
    data: (data) => onData?.(data),
    end: () => {
      ended = true;
      // node-pty waits for its stream to close before it reports the exit.
      socket.destroy();
      tell();
    },
    lost: () => {
      alone = true;
      ended = true;
      delete (handle as Partial<typeof handle>).readStart;
      child.onData((data) => onData?.(data));
      handle.readStart();
    },
  });
  if (!source) return null;
  // The stream must never read, or bytes would go missing or out of order. It
  // starts its handle on the next tick at the earliest, and the handle reads
  // only when the event loop polls: stopped here, it never reads.
  handle.readStart = () => 0;
  handle.readStop();
  child.onExit((e) => {
    exit = { exitCode: e.exitCode, signal: e.signal ?? 0 };
    if (ended) return tell();
    source.finish();
    setTimeout(() => source.stop(), CLOSE_GRACE_MS);
  });
  return {
    pid: child.pid,
    // Handed on only while the thread reads it: a paused stream may hold bytes it read.
    get fd() {
      return alone ? undefined : child.fd;
    },
    onData: (handler) => void (onData = handler),
    onExit: (handler) => void (onExit = handler),
    write: (data) => child.write(data),
    resize: (cols, rows) => child.resize(cols, rows),
    kill: (signal = "SIGHUP") => child.kill(signal),
    pause: () => alone ? child.pause() : source.pause(),
    resume: () => alone ? child.resume() : source.resume(),
  };
}
