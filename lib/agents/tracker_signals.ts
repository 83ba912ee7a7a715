/**
 * The signals a tracker adds to the screen's for `skiff explain`: which
 * process is in front, what the agent's last hook said (and whether it
 * was ignored, and why), and why its first idle still counts as its start.
 *
 * @module
 */

import type { ForegroundProcess } from "../platform/proc.ts";
import type { AgentProfile } from "./profiles/mod.ts";
import type { ScreenReading, Signal } from "./rules.ts";
import type { HookReport } from "./tracker_types.ts";

/** The signals while no known agent is in front: the process that is, if any. */
export function processSignals(foreground: ForegroundProcess | undefined): Signal[] {
  return foreground
    ? [{ source: "process", rule: "no known agent in front", says: "info", text: foreground.comm }]
    : [];
}

/**
 * The signals while `profile`'s agent is in front: that it is, what the
 * screen says (`reading`), then what its last hook said (`hook`, when it
 * came from this agent).
 */
export function agentSignals(
  profile: AgentProfile,
  reading: ScreenReading,
  options: { hook?: HookReport },
): Signal[] {
  const signals: Signal[] = [
    { source: "process", rule: `${profile.label} in front`, says: "info" },
    ...reading.signals,
  ];
  const last = options.hook;
  if (last) {
    signals.push({
      source: "hook",
      rule: last.event,
      says: last.state === "info" || last.ignored ? "info" : last.state,
      ...(last.ignored
        ? { text: "ignored: no turn ran, no prompt went in, the screen was idle" }
        : {}),
    });
  }
  return signals;
}

/**
 * Why the first idle of `profile`'s agent still counts as its start, for
 * `skiff explain`: it awaits its start hook (`startHookAt` is when that came,
 * if it did) or its own report of its state (one from before `agentSince`,
 * when the agent appeared, is another agent's).
 */
export function startWaitSignal(
  profile: AgentProfile,
  reading: ScreenReading,
  times: { agentSince: number; startHookAt: number | undefined },
): Signal {
  if (profile.statusApp === undefined) {
    return times.startHookAt === undefined
      ? {
        source: "hook",
        rule: "no start hook yet",
        says: "info",
        text: `${profile.label} ends its start with its ${profile.startHook} hook`,
      }
      : {
        source: "hook",
        rule: "its idle after the start hook settles",
        says: "info",
        text: `${profile.label} may draw its ${profile.startHook} hook a moment after the ` +
          `hook's event: its idle must hold ${profile.startSettleMs} ms`,
      };
  }
  const none = reading.reportedAt === undefined || reading.reportedAt < times.agentSince;
  return {
    source: "status",
    rule: none ? "no report of its own yet" : "its report of idle settles",
    says: "info",
    text: none
      ? `${profile.label} reports its own state: it is starting until its first report`
      : `${profile.label} may still work on its start: its report of idle must hold ${profile.startSettleMs} ms`,
  };
}
