/**
 * Finding skiffd: connect to its socket, and start it when nothing answers.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { runtimeFiles, socketPath } from "../config/paths.ts";
import { fileLockHeld } from "../platform/files.ts";
import { type ConnectAhead, ConnectionClosed, DaemonClient, linkSocketHost } from "./client.ts";
import { importLater } from "../platform/later.ts";

/** How long a command waits for a daemon it started. */
const START_TIMEOUT_MS = 15_000;

/** Options for {@linkcode connectDaemon}. */
export interface ConnectOptions {
  /** The socket; by default the configured one. */
  socket?: string;
  /** Start skiffd when none answers (default true). */
  start?: boolean;
  /**
   * The pane the command is about: when no skiffd answers and its saved
   * workspace has no such pane, refuse (`NOT_FOUND`) instead of starting one.
   */
  pane?: string;
  /**
   * Asks a first request on each connection made, right behind its hello
   * (see {@linkcode ConnectAhead}).
   */
  ahead?: ConnectAhead;
}

function unreachable(error: unknown): boolean {
  // A daemon that is shutting down may accept and then drop the connection.
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset || error instanceof ConnectionClosed;
}

/** Options for {@linkcode tryConnect}. */
export interface TryConnectOptions {
  /**
   * Also return a skiffd that is stopping (its hello says so). By default
   * one counts as gone: it is about to exit, and whatever a command starts
   * must be the skiffd after it.
   */
  stopping?: boolean;
  /** Asks a first request right behind the hello (see {@linkcode ConnectAhead}). */
  ahead?: ConnectAhead;
}

/**
 * Connects to skiffd, or returns `undefined` when none answers (or the one
 * that answers is stopping; see {@linkcode TryConnectOptions}). Never starts one.
 */
export async function tryConnect(
  socket: string = socketPath(),
  options: TryConnectOptions = {},
): Promise<DaemonClient | undefined> {
  try {
    const client = await DaemonClient.connect(socket, { ahead: options.ahead });
    if (client.server?.stopping && !options.stopping) {
      client.close();
      return undefined;
    }
    return client;
  } catch (error) {
    if (unreachable(error)) return undefined;
    if (error instanceof SkiffError) throw error;
    throw new SkiffError(`Cannot reach skiffd at ${socket}: ${(error as Error).message}`, {
      exit: "DAEMON",
    });
  }
}

/**
 * Starts skiffd for `socket`, apart from this login (see
 * `lib/platform/apart.ts`), and waits until it answers. A daemon that is
 * already running counts as started; one that is still exiting is waited
 * for, and the new one starts after it. A broken `projects.toml` is
 * reported here (`file:line:col`, exit `USAGE`) and nothing is started.
 */
export async function startDaemon(
  socket: string = socketPath(),
  options: { ahead?: ConnectAhead } = {},
): Promise<DaemonClient> {
  // Loaded only to start skiffd: every other command stays light.
  const { loadCheckedConfig } = await importLater<typeof import("../agents/checked_config.ts")>(
    "lib/agents/checked_config.ts",
  );
  const { spawnApart } = await importLater<typeof import("../platform/apart.ts")>(
    "lib/platform/apart.ts",
  );
  loadCheckedConfig();
  const deadline = Date.now() + START_TIMEOUT_MS;
  let delay = 10;
  // The skiffd this started (its spawner), and its exit code once it ended.
  let child: object | undefined;
  let ended: number | undefined;
  let failed: number | undefined;
  // Whether another skiffd held the lock since the last spawn.
  let held = false;
  while (Date.now() < deadline && failed === undefined) {
    const client = await tryConnect(socket, { ahead: options.ahead });
    if (client) return client;
    // A skiffd that holds the lock but does not answer is starting (it answers soon) or
    // exiting (its lock goes with its process): either way, no second one starts beside it.
    // Only once the lock is free does one start, and again if the first found it held.
    if (await daemonAlive(socket)) held = true;
    else if (child === undefined || (ended === 0 && held)) {
      const spawned = await spawnApart(["daemon", "run"], {
        unit: runtimeFiles(socket).daemonUnit,
        env: { SKIFF_SOCKET: socket },
      });
      child = spawned;
      ended = undefined;
      held = false;
      spawned.exited.then((code) => {
        if (child !== spawned) return;
        ended = code;
        if (code !== 0) failed = code;
      });
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }
  if (failed !== undefined) {
    throw new SkiffError(
      `skiffd failed to start (exit ${failed}). See ${runtimeFiles(socket).log}`,
      { exit: "DAEMON" },
    );
  }
  throw new SkiffError(
    `skiffd did not start within ${START_TIMEOUT_MS / 1000} s. See ${runtimeFiles(socket).log}`,
    { exit: "DAEMON" },
  );
}

/** Connects to skiffd, starting it first when none answers (unless `start` is false). */
export async function connectDaemon(options: ConnectOptions = {}): Promise<DaemonClient> {
  const socket = options.socket ?? socketPath();
  const client = await tryConnect(socket, { ahead: options.ahead });
  if (client) return client;
  // The local end of a link to another host is ssh's: a skiffd started there would be a stranger.
  if (options.start === false || linkSocketHost(socket) !== undefined) {
    throw new SkiffError(`skiffd is not running (socket ${socket})`, { exit: "DAEMON" });
  }
  if (options.pane !== undefined) {
    // Loaded only when no skiffd answers: a command that finds one stays light.
    const { refuseUnsavedPane } = await importLater<typeof import("./saved_panes.ts")>(
      "lib/client/saved_panes.ts",
    );
    refuseUnsavedPane(socket, options.pane);
  }
  return await startDaemon(socket, { ahead: options.ahead });
}

/**
 * Connects again after skiffd dropped the connection (a reload or a restart),
 * trying until `timeoutMs` passes. Never starts a daemon; `undefined` if none came.
 */
export async function reconnect(
  timeoutMs: number,
  socket: string = socketPath(),
): Promise<DaemonClient | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = await tryConnect(socket);
    if (client || Date.now() >= deadline) return client;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a skiffd process holds the lock of `socket` (it lives until that process ends). */
export function daemonAlive(socket: string = socketPath()): Promise<boolean> {
  return fileLockHeld(runtimeFiles(socket).lock);
}
