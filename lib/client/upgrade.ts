/**
 * The client's side of `skiff daemon upgrade` and `skiff daemon restart
 * --keep-panes`: ask skiffd to replace its program in place (see
 * `lib/daemon/upgrade/upgrade.ts`) and learn how it went.
 *
 * skiffd answers only when the upgrade stops before its exec (nothing
 * changed). Otherwise the connection closes at the exec, and the outcome
 * comes with the hello of whichever skiffd answers next: the new program,
 * or the old one run again when the new one could not take over. The
 * greeting is the upgrade hello, which a skiffd of another protocol
 * answers too, so an upgrade works across a change of protocol.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { socketPath } from "../config/paths.ts";
import type { UpgradeOutcome } from "../protocol/daemon.ts";
import { selfCommand } from "../platform/spawn_self.ts";
import { VERSION } from "../version.ts";
import { ConnectionClosed, DaemonClient } from "./client.ts";

/** How long the client waits for a skiffd to answer after the exec. */
const ANSWER_TIMEOUT_MS = 30_000;

/** The environment variable of the fault switch (see `lib/daemon/upgrade/handoff.ts`). */
const FAULT_ENV = "SKIFF_FAULT_UPGRADE";

/** Options for {@linkcode upgradeDaemon}. */
export interface UpgradeOptions {
  /** The socket; by default the configured one. */
  socket?: string;
  /** Run skiffd's own program again instead of this one (`restart --keep-panes`). */
  sameProgram?: boolean;
}

/** What {@linkcode upgradeDaemon} did. */
export type UpgradeResult =
  | { running: false }
  | {
    running: true;
    /** How it went, as the new skiffd tells it. */
    outcome: UpgradeOutcome;
    /** skiffd's pid, the same before and after. */
    pid: number;
    /** From the request to the new skiffd answering (ms). */
    ms: number;
  };

function connectForUpgrade(socket: string): Promise<DaemonClient | undefined> {
  return DaemonClient.connect(socket, { upgrade: true }).catch((error) => {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.ConnectionRefused ||
      error instanceof Deno.errors.ConnectionReset || error instanceof ConnectionClosed
    ) {
      return undefined;
    }
    if (error instanceof SkiffError && error.exit === "PROTOCOL") {
      // A skiffd that greets no upgrade hello of another protocol predates upgrades.
      throw new SkiffError(
        `skiffd (${error.details.daemon_version ?? "an older Skiff"}) cannot be upgraded in ` +
          "place: it predates 'skiff daemon upgrade'. 'skiff daemon restart' restarts it " +
          "(every pane comes back as a new shell)",
        { exit: "DAEMON" },
      );
    }
    throw error;
  });
}

/**
 * Replaces the running skiffd with this program (or, with `sameProgram`,
 * with its own) in place; every pane keeps running. Returns `running:
 * false` when no skiffd runs. Throws exit `DAEMON` with the reason when
 * the upgrade was refused or undone: skiffd then runs on as it was.
 */
export async function upgradeDaemon(options: UpgradeOptions = {}): Promise<UpgradeResult> {
  const socket = options.socket ?? socketPath();
  const started = performance.now();
  const client = await connectForUpgrade(socket);
  if (!client) return { running: false };
  const before = client.server!;
  const id = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const self = selfCommand(["daemon", "run"]);
  const fault = Deno.env.get(FAULT_ENV);
  try {
    await client.call("daemon.upgrade", {
      id,
      ...(options.sameProgram ? {} : { program: [self.program, ...self.args], version: VERSION }),
      ...(fault ? { fault } : {}),
    });
  } catch (error) {
    if (!(error instanceof ConnectionClosed)) {
      if (error instanceof SkiffError && error.details.method === "daemon.upgrade") {
        throw new SkiffError(
          `skiffd ${before.version} predates 'skiff daemon upgrade' and cannot be upgraded in ` +
            "place; 'skiff daemon restart' restarts it (every pane comes back as a new shell)",
          { exit: "DAEMON" },
        );
      }
      throw error;
    }
  } finally {
    client.close();
  }
  const outcome = await awaitOutcome(socket, id, before.pid);
  if (!outcome.ok) {
    throw new SkiffError(
      `The upgrade was undone at its ${outcome.step ?? "last"} step: ${outcome.error}. ` +
        `skiffd ${outcome.version} runs on with every pane as it was`,
      { exit: "DAEMON", details: { step: outcome.step ?? null } },
    );
  }
  return {
    running: true,
    outcome,
    pid: before.pid,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The panes an upgrade kept, counted as `daemon status` counts them: `4
 * panes kept (2 running)`. A pane whose process had exited is kept too (its
 * last screen and its exit), but nothing of it runs.
 */
export function keptPanes(outcome: UpgradeOutcome): string {
  const panes = outcome.panes === 1 ? "1 pane" : `${outcome.panes} panes`;
  // An older skiffd's outcome does not count the running ones.
  return outcome.running_panes === undefined
    ? `${panes} kept`
    : `${panes} kept (${outcome.running_panes} running)`;
}

/** Waits for a skiffd to answer after the exec, and for its word on upgrade `id`. */
async function awaitOutcome(socket: string, id: string, pid: number): Promise<UpgradeOutcome> {
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  let answered: string | undefined;
  while (Date.now() < deadline) {
    const client = await connectForUpgrade(socket).catch(() => undefined);
    if (client) {
      const server = client.server!;
      client.close();
      if (server.upgrade?.id === id) return server.upgrade;
      answered = `skiffd ${server.version} (pid ${server.pid}) answers but knows nothing of it`;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new SkiffError(
    `No word on the upgrade within ${ANSWER_TIMEOUT_MS / 1000} s: ` +
      (answered ?? `nothing answers on ${socket} (skiffd was pid ${pid}); see its log`),
    { exit: "DAEMON" },
  );
}
