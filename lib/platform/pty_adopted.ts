/**
 * A {@linkcode Pty} around a bare PTY master descriptor and the pid of the
 * process on it: one this process started through libc (`pty_spawn.ts`),
 * or one inherited across `skiff daemon upgrade`'s exec in place, which
 * node-pty cannot take. This implementation does its work by hand:
 *
 * - output is read on the reader thread (`pty_reader.ts`), as node-pty
 *   panes are, or on the event loop where the thread cannot run;
 * - input is written straight to the master, queued while the kernel's
 *   buffer is full;
 * - a resize is `ioctl(TIOCSWINSZ)`, which also sends SIGWINCH;
 * - signals go to the pid;
 * - the exit comes from `waitpid` on SIGCHLD (`child_reaper.ts`): the
 *   process is still this process's child.
 *
 * As with node-pty, the exit is told after the last byte of output (or,
 * when a program that outlives the child keeps the terminal open, after a
 * grace), and the descriptor is closed then.
 *
 * @module
 */

import { type ChildExit, childReaper } from "./child_reaper.ts";
import type { Pty, PtyExit } from "./pty_types.ts";
import { ptyReader, type PtySink, type PtySource } from "./pty_reader.ts";

interface Libc {
  read(fd: number, buffer: Uint8Array, length: bigint): number | bigint;
  write(fd: number, data: Uint8Array, length: bigint): number | bigint;
  close(fd: number): number;
  fcntl(fd: number, command: number, arg: number): number;
  ioctl(fd: number, request: bigint, arg: Uint8Array): number;
  __errno_location(): Deno.PointerValue;
}

const F_GETFL = 3;
const F_SETFL = 4;
const O_NONBLOCK = 0o4000;
const TIOCSWINSZ = 0x5414n;
const EAGAIN = 11;
const EINTR = 4;
/** How long output may go on after the child exited (node-pty allows the same). */
const CLOSE_GRACE_MS = 200;
/** How often a waiting write, and output read on the event loop, are tried again. */
const RETRY_MS = 5;

let libc: Libc | undefined;

function load(): Libc {
  libc ??= Deno.dlopen("libc.so.6", {
    read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
    fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
    ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
  }).symbols;
  return libc;
}

function errno(lib: Libc): number {
  return new Deno.UnsafePointerView(lib.__errno_location()!).getInt32();
}

/** Options for {@linkcode adoptPty}. */
export interface AdoptPtyOptions {
  /** The PTY master descriptor, open in this process. */
  fd: number;
  /** The process on the terminal, a child of this process. */
  pid: number;
  /**
   * Neither read the terminal nor wait for the process until the first
   * {@linkcode Pty.resume}: until then this program may still give both
   * back, untouched (a new skiffd that fails runs the old one again).
   */
  held?: boolean;
}

/**
 * Wraps an inherited PTY master and its child (see the module's
 * description). Reading starts with the first {@linkcode Pty.onData} (with
 * `held`, at the first resume after it); until then the output waits in
 * the kernel.
 */
export function adoptPty(options: AdoptPtyOptions): Pty {
  const lib = load();
  const { fd, pid } = options;
  const flags = lib.fcntl(fd, F_GETFL, 0);
  if (flags < 0) throw new Error(`descriptor ${fd} is not open`);
  if ((flags & O_NONBLOCK) === 0) lib.fcntl(fd, F_SETFL, flags | O_NONBLOCK);

  let onData: ((data: Uint8Array) => void) | undefined;
  let onExit: ((exit: PtyExit) => void) | undefined;
  let exit: PtyExit | undefined;
  let ended = false;
  let told = false;
  let closed = false;
  let source: PtySource | undefined;
  const writes: Uint8Array[] = [];
  let writeTimer: ReturnType<typeof setTimeout> | undefined;

  const tell = () => {
    if (told || !ended || !exit) return;
    told = true;
    if (!closed) {
      closed = true;
      lib.close(fd);
    }
    writes.length = 0;
    clearTimeout(writeTimer);
    onExit?.(exit);
  };

  const sink: PtySink = {
    data: (data) => onData?.(data),
    end: () => {
      ended = true;
      tell();
    },
    lost: () => {
      // The thread failed: read on the event loop from here on.
      source = loopSource(lib, fd, sink);
    },
  };

  let held = options.held ?? false;
  const start = () => {
    if (source) return;
    source = ptyReader()?.watch(fd, sink, { paused: held }) ?? loopSource(lib, fd, sink, held);
  };

  const flush = () => {
    writeTimer = undefined;
    while (writes.length > 0 && !closed) {
      const chunk = writes[0];
      const n = Number(lib.write(fd, chunk, BigInt(chunk.length)));
      if (n >= 0) {
        if (n === chunk.length) writes.shift();
        else writes[0] = chunk.subarray(n);
        continue;
      }
      const code = errno(lib);
      if (code === EINTR) continue;
      if (code === EAGAIN) {
        writeTimer = setTimeout(flush, RETRY_MS);
        return;
      }
      // The terminal is gone (EIO): the exit follows.
      writes.length = 0;
    }
  };

  const reap = () =>
    childReaper().watch(pid, (status: ChildExit) => {
      exit = status.unknown
        ? { exitCode: 0, signal: 0, unknown: true }
        : { exitCode: status.exitCode, signal: status.signal };
      if (ended) return tell();
      start();
      source!.finish();
      setTimeout(() => source?.stop(), CLOSE_GRACE_MS);
    });
  if (!held) reap();

  return {
    pid,
    fd,
    onData: (handler) => {
      onData = handler;
      start();
    },
    onExit: (handler) => void (onExit = handler),
    write: (data) => {
      if (closed || data.length === 0) return;
      writes.push(data.slice());
      if (writeTimer === undefined && writes.length === 1) flush();
    },
    resize: (cols, rows) => {
      if (closed) return;
      lib.ioctl(fd, TIOCSWINSZ, new Uint8Array(new Uint16Array([rows, cols, 0, 0]).buffer));
    },
    kill: (signal = "SIGHUP") => Deno.kill(pid, signal as Deno.Signal),
    pause: () => source?.pause(),
    resume: () => {
      if (held) {
        held = false;
        start();
        reap();
      }
      source?.resume();
    },
  };
}

/** Event-loop reading of one master, for where the reader thread cannot run. */
function loopSource(lib: Libc, fd: number, sink: PtySink, paused = false): PtySource {
  let finishing = false;
  let done = false;
  const buffer = new Uint8Array(64 << 10);
  const end = () => {
    if (done) return;
    done = true;
    clearInterval(timer);
    sink.end();
  };
  const read = () => {
    if (done || (paused && !finishing)) return;
    for (;;) {
      const n = Number(lib.read(fd, buffer, BigInt(buffer.length)));
      if (n > 0) {
        sink.data(buffer.slice(0, n));
        continue;
      }
      if (n < 0) {
        const code = errno(lib);
        if (code === EINTR) continue;
        if (code === EAGAIN) return;
      }
      return end();
    }
  };
  const timer = setInterval(read, RETRY_MS);
  return {
    pause: () => void (paused = true),
    resume: () => {
      paused = false;
      read();
    },
    finish: () => {
      finishing = true;
      read();
    },
    stop: end,
  };
}
