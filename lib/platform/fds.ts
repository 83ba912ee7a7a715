/**
 * Keeping a process's open files out of its children. node-pty opens each
 * pane's terminal, and `node:net` skiffd's listening socket, without the
 * close-on-exec flag, so every later child (a pane's shell, the watcher)
 * would inherit them: after a kill -9 of skiffd its socket would still be
 * open and listening in those children, with nobody to answer, and the
 * panes' terminals would never hang up.
 *
 * @module
 */

const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

type Fcntl = (fd: number, command: number, arg: number) => number;

let fcntl: Fcntl | null | undefined;

function loadFcntl(): Fcntl | null {
  if (fcntl !== undefined) return fcntl;
  fcntl = null;
  const names = Deno.build.os === "darwin" ? ["libSystem.B.dylib"] : ["libc.so.6", "libc.so"];
  for (const name of names) {
    try {
      const lib = Deno.dlopen(name, {
        fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
      });
      fcntl = (fd, command, arg) => lib.symbols.fcntl(fd, command, arg);
      break;
    } catch {
      // Try the next name.
    }
  }
  return fcntl;
}

/** The open file descriptors of this process, where the platform lists them. */
function openFds(): number[] {
  for (const dir of ["/proc/self/fd", "/dev/fd"]) {
    try {
      return [...Deno.readDirSync(dir)].map((e) => Number(e.name)).filter(Number.isInteger);
    } catch {
      // Not here.
    }
  }
  return [];
}

/**
 * Sets close-on-exec on every open file descriptor above stderr, so that a
 * child started next inherits only what it is given. Call it just before
 * starting a child. Does nothing where libc or the list of descriptors is
 * out of reach.
 */
export function keepFilesFromChildren(): void {
  if (Deno.build.os === "windows") return;
  const call = loadFcntl();
  if (!call) return;
  for (const fd of openFds()) {
    if (fd <= 2) continue;
    const flags = call(fd, F_GETFD, 0);
    if (flags >= 0 && (flags & FD_CLOEXEC) === 0) call(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}
