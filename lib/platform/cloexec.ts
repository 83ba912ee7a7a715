/**
 * Keeping this process's open files out of the programs it starts.
 *
 * A child inherits every descriptor not marked close-on-exec. Deno marks
 * most of its own, but not all (the daemon's listening socket among them):
 * a pane's shell or the watcher would then hold skiffd's socket, other
 * panes' terminals and client connections open after skiffd is gone, and a
 * client connecting to a killed skiffd would wait forever on a socket
 * nobody reads. So every spawn marks all descriptors above 2 close-on-exec
 * first.
 *
 * @module
 */

const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

type Fcntl = (fd: number, command: number, arg: number) => number;

let fcntl: Fcntl | null | undefined;
/** `close_range(3, ~0, CLOSE_RANGE_CLOEXEC)`, where libc and the kernel have it; else null. */
let closeRange: (() => boolean) | null | undefined;

/** `close_range`'s flag that marks the descriptors close-on-exec instead of closing them. */
const CLOSE_RANGE_CLOEXEC = 4;

function loadCloseRange(): (() => boolean) | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const lib = Deno.dlopen("libc.so.6", {
      close_range: { parameters: ["u32", "u32", "i32"], result: "i32" },
    });
    return () => lib.symbols.close_range(3, 0xffffffff, CLOSE_RANGE_CLOEXEC) === 0;
  } catch {
    // A glibc before 2.34.
    return null;
  }
}

function load(): Fcntl | null {
  const library = Deno.build.os === "linux"
    ? "libc.so.6"
    : Deno.build.os === "darwin"
    ? "libSystem.dylib"
    : undefined;
  if (!library) return null;
  try {
    const lib = Deno.dlopen(library, {
      fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
    });
    return (fd, command, arg) => lib.symbols.fcntl(fd, command, arg);
  } catch {
    return null;
  }
}

function openDescriptors(): number[] {
  for (const dir of ["/proc/self/fd", "/dev/fd"]) {
    try {
      const fds: number[] = [];
      for (const entry of Deno.readDirSync(dir)) {
        const fd = Number(entry.name);
        if (Number.isInteger(fd) && fd > 2) fds.push(fd);
      }
      return fds;
    } catch {
      // Not this platform's folder.
    }
  }
  return [];
}

/**
 * Marks every open descriptor above 2 close-on-exec, so that a program
 * started next inherits none of them. On Linux 5.11 and later that is one
 * call, however many descriptors are open (a thousand panes hold two
 * thousand, and every pane's start did this); elsewhere each is looked at.
 * Returns how many it changed, or -1 when one call marked them all.
 */
export function closeOnExec(): number {
  if (closeRange === undefined) closeRange = loadCloseRange();
  if (closeRange?.()) return -1;
  if (fcntl === undefined) fcntl = load();
  if (!fcntl) return 0;
  let changed = 0;
  for (const fd of openDescriptors()) {
    const flags = fcntl(fd, F_GETFD, 0);
    if (flags < 0 || (flags & FD_CLOEXEC) !== 0) continue;
    if (fcntl(fd, F_SETFD, flags | FD_CLOEXEC) === 0) changed++;
  }
  return changed;
}
