/**
 * Stopping skiffd and waiting until it is gone, for `skiff daemon stop` and
 * `restart`, and for anything else that must replace a running daemon.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { socketPath } from "../config/paths.ts";
import type { DaemonClient } from "./client.ts";
import { daemonAlive, startDaemon, tryConnect } from "./connect.ts";
import { importLater } from "../platform/later.ts";

/** How long a stop may take before it counts as failed. */
export const STOP_TIMEOUT_MS = 10_000;

/** Resolves `true` once no skiffd holds the lock of `socket`, `false` after `timeoutMs`. */
export async function waitUntilGone(
  socket: string,
  timeoutMs: number = STOP_TIMEOUT_MS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await daemonAlive(socket))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** Options for {@linkcode stopRunning} and {@linkcode stopDaemon}. */
export interface StopOptions {
  /** A new skiffd follows at once: followers (the watcher) wait for it. */
  restart?: boolean;
}

/**
 * Asks the skiffd behind `client` to stop and waits until its process is
 * gone; returns its pid. The connection is closed. Throws exit `DAEMON` when
 * it does not stop in time.
 */
export async function stopRunning(
  client: DaemonClient,
  socket: string,
  options: StopOptions = {},
): Promise<number | undefined> {
  const pid = client.server?.pid;
  await client.call("daemon.stop", options.restart ? { restart: true } : {}).catch(() => {});
  client.close();
  if (!(await waitUntilGone(socket))) {
    throw new SkiffError(`skiffd (pid ${pid}) did not stop within 10 s`, { exit: "DAEMON" });
  }
  return pid;
}

/** What {@linkcode stopDaemon} did. */
export interface StopOutcome {
  /** Whether a skiffd was running. */
  wasRunning: boolean;
  /** Its pid, when it was. */
  pid?: number;
}

/** Stops the skiffd on `socket`, if one runs, and waits until it is gone. */
export async function stopDaemon(
  socket: string = socketPath(),
  options: StopOptions = {},
): Promise<StopOutcome> {
  const client = await tryConnect(socket);
  if (!client) return { wasRunning: false };
  return { wasRunning: true, pid: await stopRunning(client, socket, options) };
}

/** What {@linkcode restartDaemon} did. */
export interface RestartOutcome {
  /** The pid of the skiffd that was stopped, if one ran. */
  oldPid?: number;
  /** The pid of the new skiffd. */
  pid?: number;
}

/**
 * Stops the skiffd on `socket` (if any) and starts a new one. The config is
 * checked first: a broken one is reported (exit `USAGE`) and the running
 * skiffd is left alone.
 */
export async function restartDaemon(socket: string = socketPath()): Promise<RestartOutcome> {
  const { loadCheckedConfig } = await importLater<typeof import("../agents/checked_config.ts")>(
    "lib/agents/checked_config.ts",
  );
  loadCheckedConfig();
  const stopped = await stopDaemon(socket, { restart: true });
  const client = await startDaemon(socket);
  const pid = client.server?.pid;
  client.close();
  return { oldPid: stopped.pid, pid };
}
