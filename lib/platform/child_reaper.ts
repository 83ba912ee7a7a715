/**
 * Waiting for children this program did not start itself: after skiffd
 * replaced its program in place (`exec.ts`), the panes' processes are still
 * its children, but the new program's runtime and node-pty know nothing of
 * them. One SIGCHLD listener asks the kernel about each such child by its
 * pid (`waitpid(pid, WNOHANG)`), never about "any child", so the children
 * the runtime and node-pty start themselves stay theirs to wait for.
 *
 * @module
 */

/** How a child ended. */
export interface ChildExit {
  /** Its exit code, or 0 when a signal ended it. */
  exitCode: number;
  /** The signal number that ended it, or 0. */
  signal: number;
  /** Set when the kernel no longer knew the child (someone else waited for it): the code is not known. */
  unknown?: true;
}

interface Libc {
  waitpid(pid: number, status: Uint8Array, options: number): number;
  waitid(idtype: number, id: number, info: Uint8Array, options: number): number;
  __errno_location(): Deno.PointerValue;
}

const WNOHANG = 1;
const WEXITED = 4;
const WNOWAIT = 0x01000000;
const P_PID = 1;
/** Where `si_pid` sits in a `siginfo_t` (x86_64 and aarch64 Linux). */
const SI_PID_OFFSET = 16;
const ECHILD = 10;
const EINTR = 4;
/** A safety net for a signal lost before the listener was in place. */
const SWEEP_MS = 2000;

function load(): Libc {
  return Deno.dlopen("libc.so.6", {
    waitpid: { parameters: ["i32", "buffer", "i32"], result: "i32" },
    waitid: { parameters: ["i32", "i32", "buffer", "i32"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
  }).symbols;
}

/** Turns a `waitpid` status into a {@linkcode ChildExit}. */
export function exitOfStatus(status: number): ChildExit {
  const signal = status & 0x7f;
  return signal === 0 ? { exitCode: (status >> 8) & 0xff, signal: 0 } : { exitCode: 0, signal };
}

/** Waits for adopted children; see the module's description. */
export class ChildReaper {
  readonly #libc: Libc;
  readonly #waiting = new Map<number, (exit: ChildExit) => void>();
  readonly #status = new Int32Array(1);
  #listening = false;
  #sweep: ReturnType<typeof setInterval> | undefined;
  readonly #onSignal = () => this.check();

  private constructor(libc: Libc) {
    this.#libc = libc;
  }

  /** Makes a reaper (Linux); throws where libc cannot be loaded. */
  static open(): ChildReaper {
    if (Deno.build.os !== "linux") throw new Error("waiting for adopted children needs Linux");
    return new ChildReaper(load());
  }

  /**
   * Whether child `pid` has ended, asked without waiting for it (it stays
   * for whoever waits for it): ended and not yet waited for, or already
   * waited for by someone else.
   */
  ended(pid: number): boolean {
    const info = new Uint8Array(128);
    const got = this.#libc.waitid(P_PID, pid, info, WEXITED | WNOHANG | WNOWAIT);
    if (got !== 0) return true;
    return new DataView(info.buffer).getInt32(SI_PID_OFFSET, true) === pid;
  }

  /**
   * Calls `exited` once child `pid` has ended (at once if it already has).
   * A child the kernel does not know as this process's child is told as
   * ended with `unknown` set.
   */
  watch(pid: number, exited: (exit: ChildExit) => void): void {
    this.#waiting.set(pid, exited);
    this.#listen();
    this.#reap(pid);
  }

  /** How many children it waits for. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Asks about every child it waits for; the SIGCHLD listener calls this. */
  check(): void {
    for (const pid of [...this.#waiting.keys()]) this.#reap(pid);
    if (this.#waiting.size === 0) this.#quiet();
  }

  #reap(pid: number): void {
    const exited = this.#waiting.get(pid);
    if (!exited) return;
    const status = new Uint8Array(this.#status.buffer);
    for (;;) {
      const got = this.#libc.waitpid(pid, status, WNOHANG);
      if (got === 0) return;
      if (got === pid) {
        this.#waiting.delete(pid);
        exited(exitOfStatus(this.#status[0]));
        return;
      }
      const code = new Deno.UnsafePointerView(this.#libc.__errno_location()!).getInt32();
      if (code === EINTR) continue;
      if (code === ECHILD) {
        this.#waiting.delete(pid);
        exited({ exitCode: 0, signal: 0, unknown: true });
      }
      return;
    }
  }

  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    Deno.addSignalListener("SIGCHLD", this.#onSignal);
    this.#sweep = setInterval(() => this.check(), SWEEP_MS);
  }

  #quiet(): void {
    if (!this.#listening) return;
    this.#listening = false;
    Deno.removeSignalListener("SIGCHLD", this.#onSignal);
    clearInterval(this.#sweep);
  }

  /** Stops listening; children still waited for are left to the kernel. */
  close(): void {
    this.#waiting.clear();
    this.#quiet();
  }
}

let shared: ChildReaper | undefined;

/** The process's reaper, made on first use. */
export function childReaper(): ChildReaper {
  shared ??= ChildReaper.open();
  return shared;
}
