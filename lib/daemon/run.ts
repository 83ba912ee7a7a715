/**
 * skiffd's life: take the single-instance lock, replace a stale socket,
 * restore the workspace, serve, and shut down cleanly on a signal or a
 * `daemon stop`.
 *
 * @module
 */

import { ConfigSource } from "../config/config.ts";
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
import { PROTOCOL_VERSION, VERSION } from "../version.ts";
import { EventBus } from "./events.ts";
import { LiveWorkspace } from "./live_workspace.ts";
import { preparePanes } from "./pane.ts";
import { openLog } from "../platform/log.ts";
import { logApart } from "../platform/apart.ts";
import { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";
import type { EventFields, EventName } from "../protocol/events.ts";
import type { DaemonControl } from "./method_types.ts";
import { Server } from "./server.ts";
import { type DaemonService, serviceMethods } from "./services.ts";
import { writeSkiffShim } from "./shim.ts";
import { WatcherRegistry } from "./watcher_health.ts";
import { startWatcher as startWatcherApart } from "./watcher_start.ts";
import { loadWorkspace } from "./workspace.ts";
import { inodeOf, Ownership, socketAnswers } from "./ownership.ts";
import { Worktrees } from "../worktree/mod.ts";
import { countWorktreesOnTurnEnd } from "./worktree_methods.ts";

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
  try {
    return await serve(files, options.services ?? []);
  } catch (error) {
    try {
      Deno.writeTextFileSync(
        files.log,
        `${new Date().toISOString()} failed to start: ${(error as Error)?.stack ?? error}\n`,
        { append: true },
      );
    } catch {
      // No log either.
    }
    if (error instanceof SkiffError) throw error;
    throw new SkiffError(`skiffd could not start: ${(error as Error).message}`, {
      exit: "DAEMON",
    });
  }
}

async function serve(
  files: RuntimeFiles,
  services: readonly DaemonService[],
): Promise<DaemonOutcome> {
  ensureDir(files.dir, 0o700);
  const lock = await tryFileLock(files.lock);
  if (!lock) return { alreadyRunning: true };
  let writeLog = openLog(files.log);
  let logInode = inodeOf(files.log);
  const log = (line: string) => writeLog(line);
  // A cleaned folder took the log with it (another skiffd may have made a new one there).
  const reopenLog = () => {
    if (inodeOf(files.log) === logInode && logInode !== undefined) return;
    writeLog.close();
    writeLog = openLog(files.log);
    logInode = inodeOf(files.log);
  };
  try {
    Deno.statSync(files.socket);
    if (await socketAnswers(files.socket)) {
      // A skiffd without our lock (an older build) answers; leave it be.
      log(`socket ${files.socket} answers but its lock was free; not starting`);
      lock.close();
      return { alreadyRunning: true };
    }
    log(`removing stale socket ${files.socket}`);
    Deno.removeSync(files.socket);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }

  let stopping = false;
  const ownership = new Ownership(files, lock, {
    log,
    relisten: () => server.relisten(files.socket),
    restored: () => {
      reopenLog();
      // The panes' skiff script went with the folder too.
      if (!pathExists(files.bin)) writeSkiffShim(files.bin);
      workspace.saveIfBehind();
    },
    lost: (why) => {
      reopenLog();
      log(`${why}; stopping as in a daemon stop, leaving its socket and workspace alone`);
      void stop("another skiffd owns the socket", { lost: true, returning: true });
    },
  });

  ensureDir(stateDir(), 0o700);
  const started = Date.now();
  const events = new EventBus();
  const stateFile = workspaceFile(files.socket);
  const loaded = loadWorkspace(stateFile);
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
  log(`skiffd ${VERSION} starting, pid ${Deno.pid}, socket ${files.socket}`);
  logApart(log);

  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => resolveStopped = resolve);

  // Listen before restoring, so that clients waiting on a start see us at once.
  const control: DaemonControl = {
    status: () => ({
      pid: Deno.pid,
      version: VERSION,
      protocol: PROTOCOL_VERSION,
      socket: files.socket,
      started: new Date(started).toISOString(),
      uptime_ms: Date.now() - started,
      panes: workspace.panes.length,
      running_panes: workspace.panes.filter((p) => p.status === "running").length,
      sessions: workspace.sessions.length,
      clients: server.clients,
      config: workspace.config.file,
      workspace: stateFile,
      workspace_error: workspace.saveError,
      log: files.log,
      watcher: watcher.status(),
      screens: { dir: screensDir(files.socket), ...workspace.screenSaves },
    }),
    stop: (options) => options?.restart ? stop("restarting", { returning: true }) : stop("stopped"),
    reload: () => {
      const fresh = config.reload();
      log("config reloaded");
      events.emit("daemon-reloaded", {});
      return { reloaded: true as const, config: fresh.file, projects: fresh.projects.length };
    },
    dropClients: () => server.dropClients(),
  };
  const watcher = new WatcherRegistry(events, log);
  const server: Server = new Server({
    context: (connection) => ({ workspace, events, connection, control, watcher, worktrees }),
    log,
    serviceMethods: serviceMethods(services),
  });
  await server.listen(files.socket);
  ownership.listening();
  ownership.start();
  writeOwnPid(lock);

  preparePanes({ log });
  await workspace.restore();
  countWorktreesOnTurnEnd(events, workspace, worktrees);

  // The watcher runs while the Skiff agent's session exists: start it now if
  // the session came back, and whenever a session gets the mark. Its lock
  // keeps it to one.
  const startWatcher = (why: string) => void startWatcherApart(files, why, log);
  if (workspace.sessions.some((s) => Object.hasOwn(s.marks, SKIFF_AGENT_MARK))) {
    startWatcher("the Skiff agent's session exists");
  }
  events.subscribe((event) => {
    if (
      event.event === "session-marked" && event.key === SKIFF_AGENT_MARK && event.value !== null
    ) {
      startWatcher(`session ${event.session_name} is the Skiff agent's`);
    }
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
  for (const service of services) {
    try {
      await service.start(host);
      log(`started the ${service.name}`);
    } catch (error) {
      log(`could not start the ${service.name}: ${(error as Error)?.stack ?? error}`);
    }
  }

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
    for (const service of services) {
      await service.stop().catch((error) =>
        log(`the ${service.name} did not stop cleanly: ${(error as Error)?.message ?? error}`)
      );
    }
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
