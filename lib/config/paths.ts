/**
 * Where Skiff keeps its files. Every location can be moved by an environment
 * variable, so tests and second instances run fully apart.
 *
 * | what    | default                              | override          |
 * |---------|--------------------------------------|-------------------|
 * | config  | `$XDG_CONFIG_HOME/skiff`             | `SKIFF_CONFIG_DIR` |
 * | state   | `$XDG_STATE_HOME/skiff`              | `SKIFF_STATE_DIR`  |
 * | data    | `$XDG_DATA_HOME/skiff` (worktrees)   | `SKIFF_DATA_DIR`   |
 * | socket  | `$XDG_RUNTIME_DIR/skiff/skiffd.sock`, else the state folder | `SKIFF_SOCKET` |
 *
 * The daemon's log and lock and the watcher's lock and log sit beside the
 * socket and take its name: `skiffd.sock` gives `skiffd.log`,
 * `skiffd.watch.lock` and `skiffd.watch.log`.
 *
 * @module
 */

import { basename, dirname, join } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";

function env(name: string): string | undefined {
  const value = Deno.env.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/** The user's home folder, or `undefined` when the environment names none. */
export function homeFolder(): string | undefined {
  return env("HOME") ?? env("USERPROFILE");
}

/** The user's home folder (`/` when the environment names none). */
export function homeDir(): string {
  return homeFolder() ?? "/";
}

/** Expands a leading `~` to the home folder. */
export function expandHome(path: string): string {
  if (path === "~") return homeDir();
  if (path.startsWith("~/")) return join(homeDir(), path.slice(2));
  return path;
}

/** The config folder, which holds `projects.toml` and `skills/`. */
export function configDir(): string {
  const explicit = env("SKIFF_CONFIG_DIR");
  if (explicit) return explicit;
  return join(env("XDG_CONFIG_HOME") ?? join(homeDir(), ".config"), "skiff");
}

/** The path of `projects.toml`. */
export function projectsFile(): string {
  return join(configDir(), "projects.toml");
}

/** The state folder, which holds the workspace. */
export function stateDir(): string {
  const explicit = env("SKIFF_STATE_DIR");
  if (explicit) return explicit;
  return join(env("XDG_STATE_HOME") ?? join(homeDir(), ".local", "state"), "skiff");
}

/**
 * The data folder, which holds the worktrees Skiff makes for panes (unless a
 * project names another folder): work a person keeps, so not in the state
 * folder.
 */
export function dataDir(): string {
  const explicit = env("SKIFF_DATA_DIR");
  if (explicit) return explicit;
  return join(env("XDG_DATA_HOME") ?? join(homeDir(), ".local", "share"), "skiff");
}

/** The path of the daemon's socket. */
export function socketPath(): string {
  const explicit = env("SKIFF_SOCKET");
  if (explicit) return explicit;
  const runtime = env("XDG_RUNTIME_DIR");
  return join(runtime ? join(runtime, "skiff") : stateDir(), "skiffd.sock");
}

/** Files that sit beside the socket and share its name. */
export interface RuntimeFiles {
  /** The socket itself. */
  socket: string;
  /** The folder that holds the socket (mode 0700). */
  dir: string;
  /** The socket's name without `.sock`, such as `skiffd`. */
  stem: string;
  /** The daemon's log. */
  log: string;
  /** The daemon's single-instance lock. */
  lock: string;
  /** The watcher's single-instance lock. */
  watchLock: string;
  /** The watcher's log. */
  watchLog: string;
  /** The folder of the `skiff` script that panes find on their PATH. */
  bin: string;
  /** The systemd scope unit skiffd runs in, when it runs in one (without `.scope`). */
  daemonUnit: string;
  /** The systemd scope unit the watcher runs in, when it runs in one. */
  watchUnit: string;
}

/** Returns the runtime files for a socket path (by default, the current one). */
export function runtimeFiles(socket = socketPath()): RuntimeFiles {
  const dir = dirname(socket);
  const stem = basename(socket).replace(/\.sock$/, "");
  return {
    socket,
    dir,
    stem,
    log: join(dir, `${stem}.log`),
    lock: join(dir, `${stem}.lock`),
    watchLock: join(dir, `${stem}.watch.lock`),
    watchLog: join(dir, `${stem}.watch.log`),
    bin: join(dir, `${stem}.bin`),
    daemonUnit: `skiffd-${stem}`,
    watchUnit: `skiff-watch-${stem}`,
  };
}

/**
 * The path of the saved workspace of the daemon on `socket`. Daemons on
 * different sockets keep different workspaces.
 */
export function workspaceFile(socket = socketPath()): string {
  return join(stateDir(), `${runtimeFiles(socket).stem}.workspace.json`);
}

/**
 * The folder of the saved screens of the daemon on `socket`: each pane's
 * last screen and history, beside the workspace.
 */
export function screensDir(socket = socketPath()): string {
  return join(stateDir(), `${runtimeFiles(socket).stem}.screens`);
}

/**
 * The path of the records of the worktrees that the daemon on `socket` made
 * for its panes, beside its workspace.
 */
export function worktreesFile(socket = socketPath()): string {
  return join(stateDir(), `${runtimeFiles(socket).stem}.worktrees.json`);
}

/** The Skiff agent's folder when `[skiff_agent] folder` is not set. */
export const DEFAULT_AGENT_FOLDER = "~/skiff-agent";

/**
 * The default folder of the Skiff agent, `~/skiff-agent`. With no home folder
 * there is no default: this throws one clear error (exit `USAGE`) rather than
 * guess `/skiff-agent`.
 */
export function defaultAgentFolder(): string {
  const home = homeFolder();
  if (home === undefined) {
    throw new SkiffError(
      "HOME is not set, so the Skiff agent has no default folder. Set [skiff_agent] folder to an absolute path, or set HOME",
      { exit: "USAGE" },
    );
  }
  return join(home, "skiff-agent");
}
