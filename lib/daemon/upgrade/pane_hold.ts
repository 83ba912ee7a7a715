/**
 * Holding panes' output around an upgrade's steps: floods wait during the
 * new program's check, every pane is read again after a freeze or a hold,
 * and a pane whose process just ended tells its exit before the handoff.
 *
 * @module
 */

import { childReaper } from "../../platform/child_reaper.ts";
import type { Pane } from "../panes/mod.ts";

/** How long a pane whose process just ended may take to tell its exit. */
const EXIT_SETTLE_MS = 3000;

/**
 * Stops reading and parsing the panes that flood, and returns them: the new
 * program's check is a Deno start, which took 1–2 s beside fifty floods
 * parsed on two cores, and 0.3–0.5 s beside none. A flood's output waits in
 * the kernel meanwhile, as it does through the freeze; quiet panes (a
 * person typing, an agent at work) and requests are served on.
 */
export function holdFloods(panes: readonly Pane[]): Pane[] {
  const held: Pane[] = [];
  for (const pane of panes) {
    if (!pane.flooding) continue;
    held.push(pane);
    pane.holdOutput();
  }
  return held;
}

/** Reads and parses the output of `panes` again (after a freeze or a hold). */
export function thawAll(panes: readonly Pane[]): void {
  for (const pane of panes) pane.thaw();
}

/**
 * Waits until each pane whose process has ended has told its exit (the
 * exit is told after the last output): such a pane is handed over as
 * exited, with its code, rather than as a process that is gone.
 */
export async function settleExits(panes: Pane[]): Promise<void> {
  const reaper = childReaper();
  const deadline = Date.now() + EXIT_SETTLE_MS;
  for (;;) {
    const ending = panes.filter((p) => p.status === "running" && reaper.ended(p.pid));
    if (ending.length === 0 || Date.now() > deadline) return;
    // Its last output must be read to the end, paused or not.
    for (const pane of ending) pane.thaw();
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const pane of ending) pane.freeze();
  }
}
