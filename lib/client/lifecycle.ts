/**
 * Stopping skiffd and waiting until it is gone, for `skiff daemon stop` and
 * `restart`, and for anything else that must replace a running daemon.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { runtimeFiles, socketPath } from "../config/paths.ts";
import { lockHolderPid } from "../platform/files.ts";
import { processPresence, processStartTicks } from "../platform/proc.ts";
import type { DaemonClient } from "./client.ts";
import { daemonAlive, startDaemon, tryConnect } from "./connect.ts";
import { importLater } from "../platform/later.ts";
import { valueWithin } from "../platform/wait.ts";

/** How long a stop may take before it counts as failed. */
export const STOP_TIMEOUT_MS = 10_000;

/** Options for {@linkcode waitUntilGone}. */
export interface GoneOptions {
  /** Give up after this many ms (default {@linkcode STOP_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * The skiffd's pid: wait until its process has ended too. Its lock goes
   * only with the process, but a lock file removed under it (a cleaned
   * folder) can be free while it runs.
   */
  pid?: number;
  /**
   * Wait until the process has left the process table as well, once its
   * parent collected it, so that `kill -0 PID` fails as soon as the stop
   * returns. An ended process that is never collected counts as gone at
   * the timeout: it holds nothing.
   */
  reaped?: boolean;
}

/**
 * Resolves `true` once no skiffd holds the lock of `socket` (and, given
 * its `pid`, once that process has ended), `false` after the timeout.
 */
export async function waitUntilGone(socket: string, options: GoneOptions = {}): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? STOP_TIMEOUT_MS);
  const pid = options.pid;
  // A pid given to another process after this one was collected is not this skiffd.
  const started = pid === undefined ? undefined : processStartTicks(pid);
  for (;;) {
    const presence = pid === undefined || processStartTicks(pid) !== started
      ? "gone"
      : processPresence(pid);
    const ended = presence !== "running" && !(await daemonAlive(socket));
    if (ended && (!options.reaped || presence !== "exited")) return true;
    if (Date.now() >= deadline) return ended;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Options for {@linkcode stopRunning} and {@linkcode stopDaemon}. */
export interface StopOptions {
  /**
   * A new skiffd follows at once: followers (the watcher) wait for it, and
   * the stop returns as soon as the old process has ended (the new one
   * needs its lock, not its place in the process table).
   */
  restart?: boolean;
}

/** Options for {@linkcode stopRunning}. */
export interface RunningStopOptions extends StopOptions {
  /**
   * When the stop counts as failed, as a `Date.now()` time (by default
   * {@linkcode STOP_TIMEOUT_MS} from now).
   */
  deadline?: number;
}

function notStopped(pid: number | undefined, socket: string): SkiffError {
  return new SkiffError(
    `skiffd${pid ? ` (pid ${pid})` : ""} did not stop within ${STOP_TIMEOUT_MS / 1000} s; ` +
      `it still runs. See ${runtimeFiles(socket).log}`,
    { exit: "DAEMON", details: { pid: pid ?? null } },
  );
}

/**
 * Asks the skiffd behind `client` to stop and waits until its process has
 * ended (and, unless it restarts, has left the process table); returns its
 * pid. The connection is closed. Throws exit `DAEMON` when it does not stop
 * in time.
 */
export async function stopRunning(
  client: DaemonClient,
  socket: string,
  options: RunningStopOptions = {},
): Promise<number | undefined> {
  const pid = client.server?.pid;
  const deadline = options.deadline ?? Date.now() + STOP_TIMEOUT_MS;
  const asked = client.call("daemon.stop", options.restart ? { restart: true } : {})
    .catch(() => {});
  // A skiffd that hangs takes the connection and never answers: its process must end in time
  // all the same.
  await valueWithin(asked, Math.max(0, deadline - Date.now()));
  client.close();
  const timeoutMs = Math.max(0, deadline - Date.now());
  if (!(await waitUntilGone(socket, { pid, reaped: !options.restart, timeoutMs }))) {
    throw notStopped(pid, socket);
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

/**
 * Stops the skiffd on `socket`, if one runs, and waits until it is gone. A
 * skiffd that is stopping already (another stop asked) is waited for, as is
 * one that holds the lock without answering: one that is exiting goes, one
 * that is starting is stopped once it answers. All of it within
 * {@linkcode STOP_TIMEOUT_MS}: past it, exit `DAEMON` says the skiffd still
 * runs, whether it never answered (hung) or answered and did not end.
 */
export async function stopDaemon(
  socket: string = socketPath(),
  options: StopOptions = {},
): Promise<StopOutcome> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  const lock = runtimeFiles(socket).lock;
  let holder: number | undefined;
  for (;;) {
    // A skiffd that hangs (stopped by a signal, stuck in a call) takes the connection and never
    // says hello: the stop still ends, with its line, at its time limit.
    const client = await valueWithin(
      tryConnect(socket, { stopping: true }),
      Math.max(0, deadline - Date.now()),
      (late) => late?.close(),
    );
    if (client === "late") throw notStopped(lockHolderPid(lock) ?? holder, socket);
    if (client) {
      return { wasRunning: true, pid: await stopRunning(client, socket, { ...options, deadline }) };
    }
    if (!(await daemonAlive(socket))) break;
    holder = lockHolderPid(lock) ?? holder;
    if (Date.now() >= deadline) throw notStopped(holder, socket);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (holder === undefined) return { wasRunning: false };
  // Its lock is free, so its process has ended (a process running under that pid now is
  // another's): only the parent's collecting it is left to wait for.
  while (!options.restart && processPresence(holder) === "exited" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { wasRunning: true, pid: holder };
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
