/**
 * Replacing this process's program in place (`execve`), keeping chosen
 * descriptors open: the process keeps its pid, its children and its place
 * (session, scope, keyring), and the new program finds those descriptors
 * at the same numbers. `skiff daemon upgrade` uses it (see
 * `lib/daemon/upgrade/upgrade.ts`). Linux, through libc by FFI.
 *
 * Every other descriptor stays close-on-exec ({@linkcode closeOnExec} marks
 * them all), so the new program starts with only what it is given.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";

interface Libc {
  execve(path: Uint8Array, argv: Uint8Array, envp: Uint8Array): number;
  close(fd: number): number;
  fcntl(fd: number, command: number, arg: number): number;
  __errno_location(): Deno.PointerValue;
  strerror(code: number): Deno.PointerValue;
}

const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

let libc: Libc | undefined;

function load(): Libc {
  if (Deno.build.os !== "linux") {
    throw new Error("replacing the running program in place works on Linux only");
  }
  libc ??= Deno.dlopen("libc.so.6", {
    execve: { parameters: ["buffer", "buffer", "buffer"], result: "i32" },
    close: { parameters: ["i32"], result: "i32" },
    fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
    strerror: { parameters: ["i32"], result: "pointer" },
  }).symbols;
  return libc;
}

/** The text of errno `code`, such as "No such file or directory". */
function errnoText(lib: Libc, code: number): string {
  const text = lib.strerror(code);
  return text ? new Deno.UnsafePointerView(text).getCString() : `errno ${code}`;
}

const encoder = new TextEncoder();

/** A NUL-ended C string. */
function cString(text: string): Uint8Array {
  return encoder.encode(text + "\0");
}

/**
 * A NULL-ended array of C strings in one buffer: the pointers first, then
 * the strings they point to, so that the buffer passed keeps them all alive.
 */
function cStrings(items: readonly string[]): Uint8Array {
  const strings = items.map(cString);
  const head = (items.length + 1) * 8;
  const block = new Uint8Array(head + strings.reduce((n, b) => n + b.length, 0));
  const base = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(block)));
  const pointers = new BigUint64Array(block.buffer, 0, items.length + 1);
  let offset = head;
  strings.forEach((bytes, i) => {
    block.set(bytes, offset);
    pointers[i] = base + BigInt(offset);
    offset += bytes.length;
  });
  return block;
}

/** Options for {@linkcode execInPlace}. */
export interface ExecOptions {
  /** The whole environment of the new program. */
  env: Record<string, string>;
  /** Descriptors the new program keeps (close-on-exec is cleared on these alone). */
  keep: readonly number[];
}

/**
 * Replaces this process's program with `argv` (its first word a path).
 * Returns only when the exec failed: then every descriptor is close-on-exec
 * again and the error says why; nothing else has changed.
 */
export function execInPlace(argv: readonly string[], options: ExecOptions): Error {
  const lib = load();
  if (argv.length === 0) return new Error("no program to run");
  closeOnExec();
  const cleared: number[] = [];
  for (const fd of options.keep) {
    const flags = lib.fcntl(fd, F_GETFD, 0);
    if (flags < 0) {
      restore(lib, cleared);
      return new Error(`descriptor ${fd} is not open`);
    }
    if (lib.fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) === 0) cleared.push(fd);
  }
  const args = cStrings(argv);
  const env = cStrings(Object.entries(options.env).map(([k, v]) => `${k}=${v}`));
  lib.execve(cString(argv[0]), args, env);
  // Still here: the exec failed, and errno says why.
  const code = new Deno.UnsafePointerView(lib.__errno_location()!).getInt32();
  restore(lib, cleared);
  return new Error(`cannot run ${argv[0]}: ${errnoText(lib, code)}`);
}

function restore(lib: Libc, fds: number[]): void {
  for (const fd of fds) {
    const flags = lib.fcntl(fd, F_GETFD, 0);
    if (flags >= 0) lib.fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

/**
 * This process's own command line, as it was started (`/proc/self/cmdline`),
 * with the program's path made absolute: what runs this program again in
 * place. `undefined` where it cannot be read.
 */
export function ownCommandLine(): string[] | undefined {
  try {
    const words = Deno.readTextFileSync("/proc/self/cmdline").split("\0");
    if (words.at(-1) === "") words.pop();
    if (words.length === 0) return undefined;
    words[0] = Deno.execPath();
    return words;
  } catch {
    return undefined;
  }
}

/**
 * The descriptor of this process that is open on the file at `path` (the
 * same file: its inode, when given, must match), or `undefined`.
 */
export function descriptorOf(path: string, ino?: number | null): number | undefined {
  try {
    for (const entry of Deno.readDirSync("/proc/self/fd")) {
      const fd = Number(entry.name);
      if (!Number.isInteger(fd) || fd <= 2) continue;
      try {
        if (Deno.readLinkSync(`/proc/self/fd/${fd}`) !== path) continue;
        if (ino !== undefined && ino !== null && Deno.statSync(`/proc/self/fd/${fd}`).ino !== ino) {
          continue;
        }
        return fd;
      } catch {
        // Closed meanwhile.
      }
    }
  } catch {
    // No /proc.
  }
  return undefined;
}

/** A file this process inherited open at descriptor `fd`, as a lock holder uses it. */
export interface InheritedFile {
  /** Facts about the open file (its inode). */
  statSync(): { ino: number | null };
  /** Closes the descriptor. */
  close(): void;
}

/** Wraps an inherited descriptor (such as a lock file's, whose lock it holds). */
export function inheritedFile(fd: number): InheritedFile {
  let closed = false;
  return {
    statSync: () => Deno.statSync(`/proc/self/fd/${fd}`),
    close: () => {
      if (closed) return;
      closed = true;
      load().close(fd);
    },
  };
}
