/**
 * What the daemon's own methods act on (`daemon status`, `stop`, `reload`,
 * `upgrade`): the facts of a running skiffd gathered from its parts, and
 * its levers.
 *
 * @module
 */

import type { ConfigSource } from "../config/config_source.ts";
import { type RuntimeFiles, screensDir } from "../config/paths.ts";
import { PROTOCOL_VERSION, VERSION } from "../version.ts";
import type { EventBus } from "./records/mod.ts";
import type { LiveWorkspace } from "./workspace/mod.ts";
import type { DaemonControl, Server, WatcherRegistry } from "./server/mod.ts";
import type { Upgrader } from "./upgrade/mod.ts";

/** The parts of a running skiffd that {@linkcode daemonControl} reports on and drives. */
export interface DaemonParts {
  /** Its runtime files. */
  files: RuntimeFiles;
  /** When it started (ms since the epoch; an upgrade keeps the first start). */
  started: number;
  /** The workspace file. */
  stateFile: string;
  /** Sessions and panes. */
  workspace: LiveWorkspace;
  /** The socket's server. */
  server: Server;
  /** The watcher's health. */
  watcher: WatcherRegistry;
  /** Upgrades in place. */
  upgrader: Upgrader;
  /** The config. */
  config: ConfigSource;
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Stops skiffd; `returning` when a new one follows at once. */
  stop: (reason: string, how?: { returning?: boolean }) => Promise<void>;
}

/** The daemon's controls over `parts`. */
export function daemonControl(parts: DaemonParts): DaemonControl {
  const { files, started, workspace, server, watcher, upgrader, config, events, log } = parts;
  return {
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
      workspace: parts.stateFile,
      workspace_error: workspace.saveError,
      log: files.log,
      watcher: watcher.status(),
      upgrade: upgrader.last,
      screens: { dir: screensDir(files.socket), ...workspace.screens.stats() },
    }),
    stop: (options) =>
      options?.restart ? parts.stop("restarting", { returning: true }) : parts.stop("stopped"),
    reload: () => {
      const fresh = config.reload();
      log("config reloaded");
      events.emit("daemon-reloaded", {});
      return { reloaded: true as const, config: fresh.file, projects: fresh.projects.length };
    },
    dropClients: () => server.dropClients(),
    upgrade: (request) => upgrader.upgrade(request),
  };
}
