/**
 * The PTY interface skiffd uses, and its first implementation on
 * `@lydell/node-pty`. The rest of the daemon sees only {@linkcode Pty}, so a
 * libc-FFI implementation can replace this one later.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";

/** How a pane's process ended. */
export interface PtyExit {
  /** The exit code, or 0 when a signal ended it. */
  exitCode: number;
  /** The signal number that ended it, or 0. */
  signal: number;
}

/** A process on a pseudo-terminal. */
export interface Pty {
  /** The child's process id. */
  readonly pid: number;
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
  /** The master's read stream (private in node-pty). */
  _socket?: { destroy(error?: unknown): unknown };
}

/** How long a read stream may stay open after the child exited, as node-pty allows. */
const CLOSE_GRACE_MS = 200;

let nodePty: Promise<NodePtyModule> | undefined;

function loadNodePty(): Promise<NodePtyModule> {
  // Loaded on first use so commands that never spawn a pane do not pay for the addon.
  nodePty ??= import("@lydell/node-pty").then((m) => (m.default ?? m) as unknown as NodePtyModule);
  return nodePty;
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
  let paused = false;
  let ending = false;
  const socket = child._socket;
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
