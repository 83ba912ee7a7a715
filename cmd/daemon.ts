/**
 * `skiff daemon`: run, start, stop, restart, reload and inspect skiffd.
 *
 * @module
 */

import { type CommandSpec, Exit, SkiffError } from "../lib/cli/mod.ts";
import { runtimeFiles, socketPath } from "../lib/config/paths.ts";
import { daemonAlive, type DaemonClient, startDaemon, tryConnect } from "../lib/client/mod.ts";
import { age } from "../lib/client/format.ts";

const STOP_TIMEOUT_MS = 10_000;

async function waitUntilGone(socket: string): Promise<boolean> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!(await daemonAlive(socket))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

async function stopDaemon(client: DaemonClient, socket: string): Promise<number | undefined> {
  const pid = client.server?.pid;
  await client.call("daemon.stop").catch(() => {});
  client.close();
  if (!(await waitUntilGone(socket))) {
    throw new SkiffError(`skiffd (pid ${pid}) did not stop within 10 s`, { exit: "DAEMON" });
  }
  return pid;
}

const run: CommandSpec = {
  name: "run",
  summary: "Run skiffd in the foreground",
  description:
    "Run skiffd in this terminal until it is stopped. Other commands start it detached on their own; use this to watch it or run it under a service manager.",
  exitCodes: [[4, "skiffd could not start"]],
  run: async (ctx) => {
    const { runDaemon } = await import("../lib/daemon/mod.ts");
    const files = runtimeFiles();
    try {
      const outcome = await runDaemon();
      if (outcome.alreadyRunning) {
        ctx.out.result(
          { running: true, already: true, socket: files.socket },
          () => ctx.out.line(`skiffd is already running (socket ${files.socket})`),
        );
      }
      return Exit.OK;
    } catch (error) {
      // A detached daemon has no terminal: leave the reason in its log.
      try {
        Deno.writeTextFileSync(
          files.log,
          `${new Date().toISOString()} failed to start: ${(error as Error)?.stack ?? error}\n`,
          { append: true },
        );
      } catch {
        // No log either.
      }
      throw new SkiffError(`skiffd could not start: ${(error as Error).message}`, {
        exit: "DAEMON",
      });
    }
  },
};

const start: CommandSpec = {
  name: "start",
  summary: "Start skiffd in the background",
  exitCodes: [[4, "skiffd could not start"]],
  run: async (ctx) => {
    const socket = socketPath();
    const existing = await tryConnect(socket);
    const client = existing ?? await startDaemon(socket);
    const pid = client.server?.pid;
    client.close();
    ctx.out.result({ running: true, started: !existing, pid, socket }, () =>
      ctx.out.line(
        existing ? `skiffd is already running (pid ${pid})` : `skiffd started (pid ${pid})`,
      ));
  },
};

const stop: CommandSpec = {
  name: "stop",
  summary: "Stop skiffd; panes come back as new shells at the next start",
  exitCodes: [[4, "skiffd did not stop in time"]],
  run: async (ctx) => {
    const socket = socketPath();
    const client = await tryConnect(socket);
    if (!client) {
      ctx.out.result(
        { running: false, stopped: false, socket },
        () => ctx.out.line("skiffd is not running"),
      );
      return;
    }
    const pid = await stopDaemon(client, socket);
    ctx.out.result(
      { running: false, stopped: true, pid, socket },
      () => ctx.out.line(`skiffd stopped (pid ${pid})`),
    );
  },
};

const restart: CommandSpec = {
  name: "restart",
  summary: "Stop and start skiffd; every pane comes back as a new shell",
  exitCodes: [[4, "skiffd did not stop or start"]],
  run: async (ctx) => {
    const socket = socketPath();
    const old = await tryConnect(socket);
    const oldPid = old ? await stopDaemon(old, socket) : undefined;
    const client = await startDaemon(socket);
    const pid = client.server?.pid;
    client.close();
    ctx.out.result(
      { running: true, old_pid: oldPid ?? null, pid, socket },
      () => ctx.out.line(`skiffd restarted (pid ${pid})`),
    );
  },
};

const reload: CommandSpec = {
  name: "reload",
  summary: "Re-read the config; panes keep running",
  description:
    "Re-read projects.toml and drop client connections. Pane processes keep running and keep their generation. A broken config is refused and the old one stays.",
  exitCodes: [[4, "skiffd is not running"]],
  run: async (ctx) => {
    const client = await tryConnect();
    if (!client) throw new SkiffError("skiffd is not running", { exit: "DAEMON" });
    try {
      const result = await client.call("daemon.reload");
      ctx.out.result(result, () => ctx.out.line("skiffd reloaded its config"));
    } finally {
      client.close();
    }
  },
};

const status: CommandSpec = {
  name: "status",
  summary: "Show whether skiffd runs, its pid, uptime and panes",
  exitCodes: [[4, "skiffd is not running"]],
  run: async (ctx) => {
    const socket = socketPath();
    const client = await tryConnect(socket);
    if (!client) {
      ctx.out.result({ running: false, socket }, () => ctx.out.line("skiffd is not running"));
      return Exit.DAEMON;
    }
    try {
      const s = await client.call("daemon.status");
      ctx.out.result({ running: true, ...s }, () =>
        ctx.out.line(
          `skiffd ${s.version} running, pid ${s.pid}, up ${age(Number(s.uptime_ms))}, ` +
            `${s.panes} panes (${s.running_panes} running), socket ${s.socket}`,
        ));
    } finally {
      client.close();
    }
  },
};

/** The `daemon` command group. */
export const command: CommandSpec = {
  name: "daemon",
  summary: "Run, start, stop, restart, reload or inspect skiffd",
  description:
    "skiffd owns the panes. Any command that needs it starts it when none answers, so you rarely need these.",
  subcommands: [status, start, stop, restart, reload, run],
};
