/**
 * Where the links to other hosts keep their files: a private folder (0700)
 * beside skiffd's socket, named after it (`skiffd.hosts/` beside
 * `skiffd.sock`), so two skiffds never share a link. For each host it holds
 * ssh's control socket (`NAME.ctl`), the local end of the forward to the
 * host's skiffd (`NAME.sock`, made by ssh with mode 0600), and the pid of
 * the ssh that holds both (`NAME.pid`), so a skiffd that was killed leaves
 * nothing the next one cannot clean up.
 *
 * A Unix socket's path has room for about 100 bytes, and ssh makes its
 * control socket under a name 17 bytes longer first. When the folder beside
 * the socket is too deep, the files go to a folder of this user's in the
 * temporary folder, named by a hash of the socket's path.
 *
 * @module
 */

import { runtimeFiles } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import { join } from "../platform/path.ts";

/** The longest socket path that works on Linux and macOS, with ssh's temporary suffix. */
const MAX_SOCKET_PATH = 100 - 17;

/** The files of one host's link. */
export interface LinkFiles {
  /** The private folder that holds them. */
  dir: string;
  /** ssh's control socket (ControlPath). */
  control: string;
  /** The local socket that ssh forwards to the host's skiffd. */
  socket: string;
  /** The pid of the ssh that holds the link. */
  pid: string;
}

function shortHash(text: string): string {
  // FNV-1a, 32 bits: enough to keep two sockets' folders apart.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * The folders that may hold the links of the skiffd on `socket`: the one
 * beside the socket, and the short one in the temporary folder for host
 * names too long for the first.
 */
export function linksDirs(socket: string): [beside: string, short: string] {
  const files = runtimeFiles(socket);
  const tmp = Deno.env.get("TMPDIR") || "/tmp";
  return [
    join(files.dir, `${files.stem}.hosts`),
    join(tmp, `skiff-${Deno.uid() ?? "u"}-${shortHash(socket)}.hosts`),
  ];
}

/** The files of host `name`'s link, for the skiffd on `socket`. */
export function linkFiles(socket: string, name: string): LinkFiles {
  const [beside, short] = linksDirs(socket);
  const dir = join(beside, `${name}.ctl`).length <= MAX_SOCKET_PATH ? beside : short;
  const files = {
    dir,
    control: join(dir, `${name}.ctl`),
    socket: join(dir, `${name}.sock`),
    pid: join(dir, `${name}.pid`),
  };
  if (files.control.length > MAX_SOCKET_PATH) {
    throw new SkiffError(`The link folder ${dir} is too deep for a socket`, { exit: "ERROR" });
  }
  return files;
}

/**
 * Makes the links' folder (0700) and checks that it is this user's and
 * private: ssh's sockets in it reach the hosts as this user.
 */
export function ensurePrivateDir(dir: string): void {
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = Deno.lstatSync(dir);
  const uid = Deno.uid();
  if (!info.isDirectory || (uid !== null && info.uid !== uid)) {
    throw new SkiffError(`${dir} is not a folder of this user's; links to hosts need one`, {
      exit: "ERROR",
    });
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(dir, 0o700);
}

/** Removes a file of a link, if it is there. */
export function removeFile(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Not there.
  }
}

/**
 * Ends an ssh a killed skiffd left holding this link (its pid is in the
 * link's pid file), when that process still is that ssh, and removes the
 * link's files.
 */
export function clearLeftovers(files: LinkFiles): void {
  let pid = 0;
  try {
    pid = Number(Deno.readTextFileSync(files.pid).trim());
  } catch {
    // No pid file.
  }
  if (pid > 0) {
    let cmdline = "";
    try {
      cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    } catch {
      // Gone, or no /proc (macOS): only a process we can name is ended.
    }
    if (cmdline.includes(files.control)) {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch {
        // Ended meanwhile.
      }
    }
  }
  removeFile(files.control);
  removeFile(files.socket);
  removeFile(files.pid);
}
