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
 * started next inherits none of them. Returns how many it changed.
 */
export function closeOnExec(): number {
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
