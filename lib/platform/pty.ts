/**
 * The PTY interface skiffd uses, and how a program is started on one. On
 * Linux with glibc, libc does it (`pty_spawn.ts`): the terminal is a
 * descriptor read by the reader thread of `pty_reader.ts`. Elsewhere, and
 * for a program that cannot be started, `@lydell/node-pty` starts it and
 * writes to it; its output is read by the reader thread where there is one,
 * else by node-pty's stream. The rest of the daemon sees only {@linkcode Pty}.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";
import { ptyReader, type PtySource } from "./pty_reader.ts";
import { spawnPtyDirect } from "./pty_spawn.ts";
import type { Pty, PtyExit, SpawnPtyOptions } from "./pty_types.ts";

export type { Pty, PtyExit, SpawnPtyOptions } from "./pty_types.ts";

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

/** Set to 1, every program starts through node-pty, as on a system without glibc (tests). */
export const NODE_PTY_ENV = "SKIFF_NODE_PTY";

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
  const direct = Deno.env.get(NODE_PTY_ENV) === "1" ? null : spawnPtyDirect(file, args, options);
  if (direct) return direct;
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
