/**
 * skiffd's life: take the single-instance lock, replace a stale socket,
 * restore the workspace, serve, and shut down cleanly on a signal or a
 * `daemon stop`.
 *
 * @module
 */

import { ConfigSource } from "../config/config_source.ts";
import { checkAgents } from "../agents/checked_config.ts";
import {
  projectsFile,
  type RuntimeFiles,
  runtimeFiles,
  screensDir,
  stateDir,
  workspaceFile,
  worktreesFile,
} from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import { ensureDir, pathExists, tryFileLock, writeOwnPid } from "../platform/files.ts";
import { inheritedFile } from "../platform/exec.ts";
import { VERSION } from "../version.ts";
import { EventBus, loadWorkspace, parseWorkspace } from "./records/mod.ts";
import { LiveWorkspace } from "./workspace/mod.ts";
import { preparePanes } from "./panes/mod.ts";
import { logApart } from "../platform/apart.ts";
import type { EventFields, EventName } from "../protocol/events.ts";
import {
  countWorktreesOnTurnEnd,
  type DaemonService,
  Server,
  Services,
  WatcherRegistry,
} from "./server/mod.ts";
import {
  DaemonLog,
  type HeldLock,
  logLine,
  Ownership,
  socketAnswers,
  writeSkiffShim,
} from "./runtime/mod.ts";
import {
  type Adopting,
  checkHandoff,
  execBack,
  type StartMode,
  startMode,
  takeOver,
  Upgrader,
} from "./upgrade/mod.ts";
import { Worktrees } from "../worktree/mod.ts";
import { daemonControl } from "./daemon_control.ts";
import { followSkiffAgent } from "./watcher/mod.ts";

/** Requests on one pane that may be served while a new skiffd still takes other panes over. */
const PASS_GATE = new Set(["attach", "pane.capture", "pane.get"]);

/** How often each pane's working folder is re-read (so a restore finds it) and a failed save is tried again. */
const CWD_REFRESH_MS = 5000;

/** The result of {@linkcode runDaemon}. */
export interface DaemonOutcome {
  /** Whether another skiffd already held the socket. */
  alreadyRunning: boolean;
}

/** Options for {@linkcode runDaemon}. */
export interface RunDaemonOptions {
  /** Services to run beside the socket while skiffd runs (the program passes the app's). */
  services?: readonly DaemonService[];
}

/**
 * Runs skiffd in this process until it is stopped. Returns at once when
 * another skiffd holds the socket's lock. A failure to start is written to
 * the daemon's log (a detached daemon has no terminal) and thrown as exit
 * `DAEMON`.
 */
export async function runDaemon(options: RunDaemonOptions = {}): Promise<DaemonOutcome> {
  const files = runtimeFiles();
  let mode: StartMode = { kind: "fresh" };
  const adopting: Adopting = { committed: false, step: "adopt", marks: { entered: Date.now() } };
  try {
    mode = startMode();
    if (mode.kind === "check") {
      // The new program's check during an upgrade: one JSON line, then done.
      console.log(JSON.stringify(await checkHandoff(mode.file)));
      return { alreadyRunning: false };
    }
    return await serve(files, options.services ?? [], mode, adopting);
  } catch (error) {
    if (mode.kind === "adopt" && !adopting.committed && !mode.undo) {
      // Before the commit: the old program takes every pane back, in place.
      const why = (error as Error)?.message ?? String(error);
      logLine(
        files.log,
        `upgrade ${mode.handoff.id}: cannot take over (${why}); running the old skiffd again`,
      );
      const failed = execBack(mode, adopting.step, why);
      logLine(
        files.log,
        `upgrade ${mode.handoff.id}: the old skiffd cannot run again: ${failed.message}`,
      );
    }
    if (mode.kind === "check") {
      throw new SkiffError((error as Error)?.message ?? String(error), { exit: "DAEMON" });
    }
    logLine(files.log, `failed to start: ${(error as Error)?.stack ?? error}`);
    if (error instanceof SkiffError) throw error;
    throw new SkiffError(`skiffd could not start: ${(error as Error).message}`, {
      exit: "DAEMON",
    });
  }
}

/**
 * Clears the way for a fresh start that holds the lock: removes a stale
 * socket. Returns false when something answers on it (a skiffd of an older
 * build, without the lock): this one must not start.
 */
async function clearStaleSocket(
  files: RuntimeFiles,
  log: (line: string) => void,
): Promise<boolean> {
  try {
    Deno.statSync(files.socket);
    if (await socketAnswers(files.socket)) {
      // A skiffd without our lock (an older build) answers; leave it be.
      log(`socket ${files.socket} answers but its lock was free; not starting`);
      return false;
    }
    log(`removing stale socket ${files.socket}`);
    Deno.removeSync(files.socket);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return true;
}

async function serve(
  files: RuntimeFiles,
  services: readonly DaemonService[],
  mode: Exclude<StartMode, { kind: "check" }>,
  adopting: Adopting,
): Promise<DaemonOutcome> {
  ensureDir(files.dir, 0o700);
  const handoff = mode.kind === "adopt" ? mode.handoff : undefined;
  // Taking over in place, the lock is held already, by the descriptor handed over.
  // Patient: a command that looks whether skiffd runs may hold the lock for that moment.
  const fresh = handoff ? undefined : await tryFileLock(files.lock, { patient: true });
  if (fresh === null) return { alreadyRunning: true };
  const lock: HeldLock = fresh ?? inheritedFile(handoff!.fds.lock);
  const daemonLog = new DaemonLog(files.log);
  const log = daemonLog.line;
  if (!handoff && !(await clearStaleSocket(files, log))) {
    lock.close();
    daemonLog.close();
    return { alreadyRunning: true };
  }

  let stopping = false;
  const ownership = new Ownership(files, lock, {
    log,
    relisten: () => server.relisten(files.socket),
    restored: () => {
      daemonLog.reopen();
      // The panes' skiff script went with the folder too.
      if (!pathExists(files.bin)) writeSkiffShim(files.bin);
      workspace.saveIfBehind();
    },
    lost: (why) => {
      daemonLog.reopen();
      log(`${why}; stopping as in a daemon stop, leaving its socket and workspace alone`);
      void stop("another skiffd owns the socket", { lost: true, returning: true });
    },
  });

  ensureDir(stateDir(), 0o700);
  const started = handoff ? Date.parse(handoff.started) : Date.now();
  const events = new EventBus(handoff ? { from: handoff.events } : {});
  const stateFile = workspaceFile(files.socket);
  const loaded = handoff
    ? { data: parseWorkspace(handoff.workspace.data) }
    : loadWorkspace(stateFile);
  if (loaded.setAside) log(`workspace was unreadable; kept it as ${loaded.setAside}`);
  const config = new ConfigSource(
    projectsFile(),
    (message) => log(`config not loaded: ${message}`),
    { check: checkAgents },
  );
  const worktrees = new Worktrees({ file: worktreesFile(files.socket), log });
  const workspace = new LiveWorkspace(loaded.data, config, {
    worktrees,
    file: stateFile,
    socket: files.socket,
    events,
    log,
    binDir: writeSkiffShim(files.bin),
    mayWrite: () => ownership.owns(),
    screens: screensDir(files.socket),
  });
  if (handoff) {
    workspace.recall(handoff.workspace);
    log(
      `skiffd ${VERSION} taking over in place from ${handoff.from.version}` +
        `${mode.kind === "adopt" && mode.undo ? " (undoing an upgrade)" : ""}, pid ${Deno.pid}`,
    );
  } else {
    log(`skiffd ${VERSION} starting, pid ${Deno.pid}, socket ${files.socket}`);
    logApart(log);
  }

  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => resolveStopped = resolve);

  const running = new Services(services);
  const watcher = new WatcherRegistry(events, log);
  if (handoff) watcher.rememberTold(handoff.told);
  const server: Server = new Server({
    context: (connection) => ({ workspace, events, connection, control, watcher, worktrees }),
    log,
    serviceMethods: running.methods,
    lastUpgrade: () => upgrader.last,
    stopping: () => stopping,
    // While a new skiffd takes panes over, a terminal may attach to (or look at) one it has.
    passesGate: (request) => {
      const pane = request.params?.pane;
      if (!PASS_GATE.has(request.method) || typeof pane !== "string") return false;
      try {
        workspace.resolvePane(pane);
        return true;
      } catch {
        return false;
      }
    },
  });
  const upgrader = new Upgrader({
    files,
    workspace,
    events,
    watcher,
    server,
    lockInode: () => ownership.lockInode,
    started: new Date(started).toISOString(),
    log,
  });
  const control = daemonControl({
    files,
    started,
    stateFile,
    workspace,
    server,
    watcher,
    upgrader,
    config,
    events,
    log,
    stop: (reason, how) => stop(reason, how),
  });

  preparePanes({ log });
  if (mode.kind === "adopt") {
    await takeOver(mode, adopting, { workspace, server, ownership, upgrader, events, log });
  } else {
    // Listen before restoring, so that clients waiting on a start see us at once.
    await server.listen(files.socket);
    ownership.listening();
    ownership.start();
    if (fresh) writeOwnPid(fresh);
    await workspace.restore();
  }
  countWorktreesOnTurnEnd(events, workspace, worktrees);

  followSkiffAgent(files, {
    sessions: workspace.sessions,
    events,
    log,
    replaceOld: !!handoff && handoff.from.version !== VERSION && mode.kind === "adopt" &&
      !mode.undo,
  });

  const refresh = setInterval(() => {
    workspace.refreshCwds();
    workspace.saveIfBehind();
  }, CWD_REFRESH_MS);

  // Services talk to skiffd through its socket, so they start once it answers.
  const host = {
    socket: files.socket,
    log,
    emit: <N extends EventName>(name: N, fields: EventFields<N>) => events.emit(name, fields),
  };
  await running.start(host);

  async function stop(
    reason: string,
    how: { lost?: boolean; returning?: boolean } = {},
  ): Promise<void> {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${reason}`);
    clearInterval(refresh);
    ownership.stop();
    events.emit("daemon-stopping", { reason, returning: how.returning ?? false });
    await running.stop(log);
    // Once another skiffd owns the path, the workspace file is its: shutdown saves nothing.
    await workspace.shutdown("daemon stopped", { returning: how.returning ?? false });
    if (how.lost) {
      server.abandon();
    } else {
      await server.close();
      try {
        Deno.removeSync(files.socket);
      } catch {
        // Already removed by close().
      }
    }
    // The lock stays held until this process exits: `daemon stop` waits on it.
    resolveStopped();
  }

  const onSignal = (name: Deno.Signal, action: () => void) => {
    try {
      Deno.addSignalListener(name, action);
    } catch {
      // Not every platform has every signal.
    }
  };
  onSignal("SIGTERM", () => void stop("SIGTERM"));
  onSignal("SIGINT", () => void stop("SIGINT"));
  onSignal("SIGHUP", () => {
    try {
      control.reload();
    } catch (error) {
      log(`reload failed: ${(error as Error).message}`);
    }
  });

  await stopped;
  return { alreadyRunning: false };
}
