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
import {
  ensureDir,
  fileLockHeld,
  lockHolderPid,
  pathExists,
  tryFileLock,
  writeOwnPid,
} from "../platform/files.ts";
import { inheritedFile } from "../platform/exec.ts";
import { PROTOCOL_VERSION, VERSION } from "../version.ts";
import { EventBus } from "./events.ts";
import { LiveWorkspace } from "./live_workspace.ts";
import { preparePanes } from "./pane_process.ts";
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
import { loadWorkspace, parseWorkspace } from "./workspace.ts";
import { type HeldLock, inodeOf, Ownership, socketAnswers } from "./ownership.ts";
import {
  adoptionOrder,
  type AdoptMarks,
  adoptPane,
  adoptRest,
  checkHandoff,
  commitAdoption,
  execBack,
  faultAt,
  type StartMode,
  startMode,
} from "./adopt.ts";
import { Upgrader } from "./upgrade.ts";
import type { UpgradeStep } from "./handoff.ts";
import { Worktrees } from "../worktree/mod.ts";
import { countWorktreesOnTurnEnd } from "./worktree_methods.ts";

/** Requests on one pane that may be served while a new skiffd still takes other panes over. */
const PASS_GATE = new Set(["attach", "pane.capture", "pane.get"]);

/** How often each pane's working folder is re-read (so a restore finds it) and a failed save is tried again. */
const CWD_REFRESH_MS = 5000;

/** How long the watcher of an older program gets to end before a new one starts. */
const WATCHER_HANDOVER_MS = 5000;

/** Ends the watcher that runs (an older program's, after an upgrade) and waits until it is gone. */
async function replaceWatcher(files: RuntimeFiles, log: (line: string) => void): Promise<void> {
  if (!(await fileLockHeld(files.watchLock))) return;
  const pid = lockHolderPid(files.watchLock);
  if (pid === null) return;
  log(`ending the watcher of the skiff before the upgrade, pid ${pid}`);
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + WATCHER_HANDOVER_MS;
  while (Date.now() < deadline && await fileLockHeld(files.watchLock)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How far a new program got in taking over in place (see `adopt.ts`). */
interface Adopting {
  /** Whether it committed: it owns every pane, and a failure no longer gives them back. */
  committed: boolean;
  /** The step under way. */
  step: UpgradeStep;
  /** When it reached each point (ms since the epoch), for the outcome's timings. */
  marks: AdoptMarks;
}

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

/** Appends one line to the log at `path`, for when skiffd's own log is not open. */
function logLine(path: string, line: string): void {
  try {
    Deno.writeTextFileSync(path, `${new Date().toISOString()} ${line}\n`, { append: true });
  } catch {
    // No log either.
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
  const fresh = handoff ? undefined : await tryFileLock(files.lock);
  if (fresh === null) return { alreadyRunning: true };
  const lock: HeldLock = fresh ?? inheritedFile(handoff!.fds.lock);
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
  if (!handoff && !(await clearStaleSocket(files, log))) {
    lock.close();
    writeLog.close();
    return { alreadyRunning: true };
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
      upgrade: upgrader.last,
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
    upgrade: (request) => upgrader.upgrade(request),
  };
  const watcher = new WatcherRegistry(events, log);
  if (handoff) watcher.rememberTold(handoff.told);
  const server: Server = new Server({
    context: (connection) => ({ workspace, events, connection, control, watcher, worktrees }),
    log,
    serviceMethods: serviceMethods(services),
    lastUpgrade: () => upgrader.last,
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

  preparePanes({ log });
  if (mode.kind === "adopt") {
    faultAt(mode, "adopt");
    adopting.marks.read = Date.now();
    const order = adoptionOrder(mode.handoff);
    const handed = new Map(mode.handoff.panes.map((p) => [p.id, p]));
    const hot = order.hot.map((id) => adoptPane(workspace, handed.get(id)!));
    adopting.marks.adopted = Date.now();
    adopting.step = "listen";
    faultAt(mode, "listen");
    // Requests wait until every pane is taken over; hello is answered at once.
    server.gate();
    await server.listenFd(mode.handoff.fds.listener);
    ownership.listening();
    ownership.start();
    // The commit point: from here on this program owns every pane.
    const outcome = commitAdoption(mode, hot, adopting.marks);
    adopting.committed = true;
    upgrader.took(outcome);
    const rest = await adoptRest(workspace, mode.handoff, order.rest, log);
    outcome.ms.freeze_all = Date.now() - (mode.handoff.timings.freeze_at ?? Date.now());
    server.open();
    log(
      outcome.ok
        ? `upgrade ${outcome.id}: skiffd ${outcome.from} → ${VERSION}, ${outcome.panes} panes ` +
          `taken over; output stood still ${outcome.ms.freeze ?? "?"} ms (${hot.length} busy ` +
          `panes), ${outcome.ms.freeze_all} ms (all)`
        : `upgrade ${outcome.id} undone: ${outcome.error}`,
    );
    if (outcome.ok) {
      events.emit("daemon-upgraded", {
        from_version: outcome.from,
        version: VERSION,
        pid: Deno.pid,
        panes: outcome.panes,
      });
    }
    for (const pane of [...hot, ...rest]) workspace.watches.get(pane)?.evaluate();
  } else {
    // Listen before restoring, so that clients waiting on a start see us at once.
    await server.listen(files.socket);
    ownership.listening();
    ownership.start();
    if (fresh) writeOwnPid(fresh);
    await workspace.restore();
  }
  countWorktreesOnTurnEnd(events, workspace, worktrees);

  // The watcher runs while the Skiff agent's session exists: start it now if
  // the session came back, and whenever a session gets the mark. Its lock
  // keeps it to one.
  const startWatcher = (why: string) => void startWatcherApart(files, why, log);
  if (workspace.sessions.some((s) => Object.hasOwn(s.marks, SKIFF_AGENT_MARK))) {
    if (handoff && handoff.from.version !== VERSION && mode.kind === "adopt" && !mode.undo) {
      // The watcher runs the old program: the new one takes its place.
      void replaceWatcher(files, log).then(() => startWatcher(`skiffd is ${VERSION} now`));
    } else {
      startWatcher("the Skiff agent's session exists");
    }
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
