/**
 * Starting a program on a new pseudo-terminal by hand (Linux with glibc):
 * `posix_openpt` for the terminal, `posix_spawn` for the program, and the
 * same {@linkcode Pty} around both as a pane handed over by an upgrade gets
 * (`pty_adopted.ts`).
 *
 * node-pty does the same work, but it wraps each terminal in a Node stream,
 * event emitters and a socket that this program never reads from (the
 * reader thread reads every terminal): about 50 KB of a pane's memory, a
 * third of an idle pane's share of skiffd. Spawning through libc leaves
 * only the descriptor and the pid.
 *
 * The child becomes a session leader (`POSIX_SPAWN_SETSID`) and opens the
 * terminal by its path as its first file action, which makes it the
 * session's controlling terminal, as `forkpty` would; its signal mask is
 * emptied and every signal back to its default. The terminal starts with
 * the modes node-pty gives one (UTF-8 input among them).
 *
 * @module
 */

import { resolve } from "./path.ts";
import { which } from "./shell.ts";
import { closeOnExec } from "./cloexec.ts";
import { adoptPty } from "./pty_adopted.ts";
import type { Pty, SpawnPtyOptions } from "./pty_types.ts";

const SYMBOLS = {
  posix_openpt: { parameters: ["i32"], result: "i32" },
  grantpt: { parameters: ["i32"], result: "i32" },
  unlockpt: { parameters: ["i32"], result: "i32" },
  ptsname_r: { parameters: ["i32", "buffer", "usize"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
  tcgetattr: { parameters: ["i32", "buffer"], result: "i32" },
  tcsetattr: { parameters: ["i32", "i32", "buffer"], result: "i32" },
  sigemptyset: { parameters: ["buffer"], result: "i32" },
  posix_spawn_file_actions_init: { parameters: ["buffer"], result: "i32" },
  posix_spawn_file_actions_destroy: { parameters: ["buffer"], result: "i32" },
  posix_spawn_file_actions_addopen: {
    parameters: ["buffer", "i32", "buffer", "i32", "u32"],
    result: "i32",
  },
  posix_spawn_file_actions_adddup2: { parameters: ["buffer", "i32", "i32"], result: "i32" },
  posix_spawn_file_actions_addchdir_np: { parameters: ["buffer", "buffer"], result: "i32" },
  posix_spawnattr_init: { parameters: ["buffer"], result: "i32" },
  posix_spawnattr_destroy: { parameters: ["buffer"], result: "i32" },
  posix_spawnattr_setflags: { parameters: ["buffer", "i16"], result: "i32" },
  posix_spawnattr_setsigmask: { parameters: ["buffer", "buffer"], result: "i32" },
  posix_spawnattr_setsigdefault: { parameters: ["buffer", "buffer"], result: "i32" },
  posix_spawn: {
    parameters: ["buffer", "buffer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

const O_RDWR = 0o2;
const O_NOCTTY = 0o400;
const O_CLOEXEC = 0o2000000;
const TIOCSWINSZ = 0x5414n;
const TCSANOW = 0;
const POSIX_SPAWN_SETSIGDEF = 0x04;
const POSIX_SPAWN_SETSIGMASK = 0x08;
const POSIX_SPAWN_SETSID = 0x80;
/** More than glibc's `posix_spawn_file_actions_t` (80 bytes) and `posix_spawnattr_t` (336). */
const OPAQUE_BYTES = 512;
/** glibc's `sigset_t`. */
const SIGSET_BYTES = 128;
/** glibc's `struct termios` on Linux, and where its flags sit. */
const TERMIOS_BYTES = 60;
const C_IFLAG = 0;
const C_CFLAG = 8;
/**
 * Input modes beyond the kernel's defaults: node-pty's (any key restarts
 * output, a bell when the line is full, a break interrupts), and UTF-8, as
 * tmux sets it, so that a backspace erases a whole character, not a byte.
 */
const IUTF8 = 0o40000;
const IXANY = 0o4000;
const IMAXBEL = 0o20000;
const BRKINT = 0o2;
/** Hang up the program when the terminal's last holder closes it, as node-pty sets. */
const HUPCL = 0o2000;

let libc: Libc | null | undefined;

function load(): Libc | null {
  if (libc !== undefined) return libc;
  if (Deno.build.os !== "linux") return libc = null;
  try {
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    // Another libc, or a glibc before 2.29 (no addchdir_np): node-pty starts panes.
    libc = null;
  }
  return libc;
}

const encoder = new TextEncoder();

/** A NUL-terminated C string. */
function cString(text: string): Uint8Array {
  return encoder.encode(text + "\0");
}

/** A NULL-terminated array of pointers to `strings`, which the caller keeps alive. */
function cArray(strings: Uint8Array[]): BigUint64Array {
  const array = new BigUint64Array(strings.length + 1);
  strings.forEach((s, i) => array[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(s))));
  return array;
}

/** Where the program is: a path with a `/` as it is (from `cwd`), else found on the pane's PATH. */
function programPath(file: string, options: SpawnPtyOptions): string | undefined {
  if (file.includes("/")) return resolve(options.cwd, file);
  const found = which(file, options.env.PATH ?? "");
  return found === undefined ? undefined : resolve(options.cwd, found);
}

/** Opens a new terminal's master (close-on-exec) and returns it with its device's path. */
function openTerminal(lib: Libc, size: { cols: number; rows: number }) {
  const master = lib.posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return undefined;
  const name = new Uint8Array(128);
  if (
    lib.grantpt(master) !== 0 || lib.unlockpt(master) !== 0 ||
    lib.ptsname_r(master, name, BigInt(name.length)) !== 0
  ) {
    lib.close(master);
    return undefined;
  }
  lib.ioctl(master, TIOCSWINSZ, new Uint8Array(Uint16Array.of(size.rows, size.cols, 0, 0).buffer));
  const modes = new Uint8Array(TERMIOS_BYTES);
  if (lib.tcgetattr(master, modes) === 0) {
    const view = new DataView(modes.buffer);
    view.setUint32(C_IFLAG, view.getUint32(C_IFLAG, true) | IUTF8 | IXANY | IMAXBEL | BRKINT, true);
    view.setUint32(C_CFLAG, view.getUint32(C_CFLAG, true) | HUPCL, true);
    lib.tcsetattr(master, TCSANOW, modes);
  }
  return { master, path: name.subarray(0, name.indexOf(0) + 1) };
}

/**
 * Starts `file` with `args` on a new terminal through libc, or returns
 * `null` when this cannot be done here (not Linux with glibc, no terminal,
 * the program not found or refused by `exec`): the caller then starts it
 * with node-pty, which prints why a program cannot start, as a shell would.
 */
export function spawnPtyDirect(file: string, args: string[], options: SpawnPtyOptions): Pty | null {
  const lib = load();
  if (!lib) return null;
  const program = programPath(file, options);
  if (!program) return null;
  const terminal = openTerminal(lib, options);
  if (!terminal) return null;
  const actions = new Uint8Array(OPAQUE_BYTES);
  const attr = new Uint8Array(OPAQUE_BYTES);
  lib.posix_spawn_file_actions_init(actions);
  lib.posix_spawnattr_init(attr);
  try {
    // The terminal opened by its path after setsid is the child's controlling terminal.
    lib.posix_spawn_file_actions_addopen(actions, 0, terminal.path, O_RDWR, 0);
    lib.posix_spawn_file_actions_adddup2(actions, 0, 1);
    lib.posix_spawn_file_actions_adddup2(actions, 0, 2);
    lib.posix_spawn_file_actions_addchdir_np(actions, cString(options.cwd));
    const none = new Uint8Array(SIGSET_BYTES);
    lib.sigemptyset(none);
    // Signals 1 to 64, glibc's own two among them (sigfillset leaves those out, and this
    // process ignores them): none stays ignored in the program.
    const all = new Uint8Array(SIGSET_BYTES).fill(0xff, 0, 8);
    lib.posix_spawnattr_setsigmask(attr, none);
    lib.posix_spawnattr_setsigdefault(attr, all);
    lib.posix_spawnattr_setflags(
      attr,
      POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF,
    );
    const env = { TERM: "xterm-256color", ...options.env };
    const argvStrings = [file, ...args].map(cString);
    const envStrings = Object.entries(env).map(([k, v]) => cString(`${k}=${v}`));
    const pid = new Int32Array(1);
    // The program gets its terminal, not this process's sockets and other terminals.
    closeOnExec();
    const failed = lib.posix_spawn(
      new Uint8Array(pid.buffer),
      cString(program),
      actions,
      attr,
      new Uint8Array(cArray(argvStrings).buffer),
      new Uint8Array(cArray(envStrings).buffer),
    );
    if (failed !== 0) {
      lib.close(terminal.master);
      return null;
    }
    return adoptPty({ fd: terminal.master, pid: pid[0], held: options.held });
  } finally {
    lib.posix_spawn_file_actions_destroy(actions);
    lib.posix_spawnattr_destroy(attr);
  }
}
