/**
 * The signals a tracker adds to the screen's for `skiff explain`: which
 * process is in front, and what the agent's last hook said (and whether it
 * was ignored, and why).
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
