/**
 * Ending a pane's processes for good: a hang-up first, then, after a grace,
 * SIGKILL for whatever its program left in its session, so nothing a pane
 * started outlives the pane or skiffd.
 *
 * @module
 */

import {
  killSession,
  killSessions,
  membersOfSessions,
  processStartTicks,
} from "../../platform/proc.ts";
import type { Pane } from "./pane.ts";

/** How long pane processes get to end after SIGHUP when the daemon stops. */
const SHUTDOWN_GRACE_MS = 1500;
/** How long a killed pane's processes get to end after SIGHUP. */
const KILL_GRACE_MS = 2000;

/**
 * SIGKILLs what is left of a pane's session, whose leader had start time
 * `leaderStart` at the hang-up; false where sessions cannot be read.
 */
function endSession(sid: number, leaderStart: number | undefined): boolean {
  if (Deno.build.os !== "linux") return false;
  killSession(sid, { leaderStart });
  return true;
}

/**
 * The start time of a pane's process while it runs. An exited one has none:
 * a process found under its pid now is another that got the pid again.
 */
function leaderStartOf(pane: Pane): number | undefined {
  return pane.status === "running" && pane.pid > 0 ? processStartTicks(pane.pid) : undefined;
}

/** A killed pane's session in its grace time (see {@linkcode SessionReaper.doomed}). */
export interface DoomedSession {
  /** The session's leader (the pane's process). */
  pid: number;
  /** The leader's start time at the hang-up. */
  leader_start: number | null;
  /** When the grace ends (ms since the epoch). */
  until: number;
}

/** Hangs up on panes' processes and kills what stays. */
export class SessionReaper {
  /** Sessions of killed panes still in their grace time: leader pid → its start time. */
  readonly #doomed = new Map<number, number | undefined>();
  /** When each grace ends. */
  readonly #until = new Map<number, number>();

  /**
   * Hangs up on a killed pane. A program that ignores SIGHUP, or is slow to
   * go, still goes after the grace: everything the pane's program started
   * shares its session.
   */
  hangUp(pane: Pane): void {
    const pid = pane.pid;
    const leaderStart = leaderStartOf(pane);
    pane.kill("SIGHUP");
    if (pid <= 0) return;
    this.#doomed.set(pid, leaderStart);
    this.#until.set(pid, Date.now() + KILL_GRACE_MS);
    setTimeout(() => {
      this.#doomed.delete(pid);
      this.#until.delete(pid);
      if (!endSession(pid, leaderStart) && pane.status === "running") pane.killGroups();
    }, KILL_GRACE_MS);
  }

  /** Killed panes' sessions still in their grace time, for a new skiffd after an upgrade. */
  doomed(): DoomedSession[] {
    return [...this.#doomed].map(([pid, start]) => ({
      pid,
      leader_start: start ?? null,
      until: this.#until.get(pid) ?? Date.now(),
    }));
  }

  /** Ends a session a skiffd before this one hung up on, when its grace runs out. */
  doom(session: DoomedSession): void {
    const start = session.leader_start ?? undefined;
    this.#doomed.set(session.pid, start);
    this.#until.set(session.pid, session.until);
    setTimeout(() => {
      this.#doomed.delete(session.pid);
      this.#until.delete(session.pid);
      endSession(session.pid, start);
    }, Math.max(0, session.until - Date.now()));
  }

  /**
   * Hangs up on every pane of `panes` (after `before` with each), waits a
   * moment for them to go, then kills what is left in their sessions and in
   * those of panes killed earlier whose grace has not run out. The hang-ups
   * are done when this returns its promise.
   */
  async endAll(panes: Pane[], before: (pane: Pane) => void): Promise<void> {
    const sessions = new Map(this.#doomed);
    for (const pane of panes) if (pane.pid > 0) sessions.set(pane.pid, leaderStartOf(pane));
    // Read the groups before the hang-up, for platforms without sessions to read.
    const groups = panes.filter((p) => p.status === "running")
      .map((p) => ({ pane: p, kill: () => p.killGroups() }));
    for (const pane of panes) {
      before(pane);
      pane.kill("SIGHUP");
    }
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    // One look at every process for all sessions: a thousand panes, a thousand sessions.
    const alive = () =>
      panes.some((p) => p.status === "running") ||
      [...membersOfSessions(sessions.keys()).values()].some((members) => members.length > 0);
    while (alive() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (Deno.build.os === "linux") {
      killSessions(new Map([...sessions].map(([sid, leaderStart]) => [sid, { leaderStart }])));
    }
    for (const { pane, kill } of groups) if (pane.status === "running") kill();
  }
}
