/**
 * `pane.wait`: wait until a pane reaches a state, and refuse at once a wait
 * that cannot end. A shell never becomes `idle`, `working`, `waiting` or
 * `starting`: only an agent does, so waiting for one of those in a pane with
 * no agent in front fails with `NO_AGENT` instead of hanging a script (after
 * a restart every pane is a shell). An exited pane reaches nothing but
 * `exited` (`NOT_RUNNING`).
 *
 * A pane that shows `shell` may be about to start an agent: just made, or
 * just typed into (`skiff keys PANE claude Enter`). So a shell counts as one
 * only once it has been quiet for {@linkcode SHELL_GRACE_MS}: no input, and
 * its process older than that.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { WaitState } from "../../protocol/agents.ts";
import type { PaneInfo } from "../../protocol/panes.ts";
import type { Pane } from "./pane.ts";
import type { PaneWatch } from "./pane_watch.ts";

/** How long a pane must show a shell, untouched, before it counts as no agent. */
export const SHELL_GRACE_MS = 3000;

/** The states only an agent reaches. */
const AGENT_STATES: readonly WaitState[] = ["idle", "working", "waiting", "starting"];

/** What a wait needs from skiffd. */
export interface PaneWaitContext {
  /** The pane's agent watch. */
  watch: PaneWatch;
  /** The pane as `pane.list` shows it now. */
  info: () => PaneInfo;
}

/** What {@linkcode waitForState} returns when the state came. */
export interface PaneWaitResult {
  /** The pane's id. */
  pane: string;
  /** Its name. */
  name: string;
  /** The state reached. */
  state: WaitState;
  /** How long it took. */
  waited_ms: number;
}

/**
 * Waits until `pane` shows `until`, for at most `limitMs` (0: no limit).
 * Throws `TIMEOUT` when the limit passes, `NO_AGENT` when it waits for an
 * agent's state in a pane that is a shell, `NOT_RUNNING` when the pane's
 * process has exited and `until` is not `exited`.
 */
export async function waitForState(
  pane: Pane,
  until: WaitState,
  context: PaneWaitContext & { limitMs: number },
): Promise<PaneWaitResult> {
  const { watch, info } = context;
  const started = Date.now();
  const needsAgent = AGENT_STATES.includes(until);
  const quietAt = () => Math.max(pane.inputAt, pane.saved.generation) + SHELL_GRACE_MS;
  let recheck: ReturnType<typeof setTimeout> | undefined;
  let recheckAt = 0;
  const verdict = (): "reached" | "no-agent" | "exited" | undefined => {
    const state = info().state;
    if (state === until) return "reached";
    if (state === "exited") return "exited";
    if (!needsAgent || state !== "shell") return undefined;
    const at = quietAt();
    if (Date.now() >= at) return "no-agent";
    // Nothing may happen on the screen meanwhile: read the pane again when the grace ends.
    if (recheckAt !== at) {
      clearTimeout(recheck);
      recheckAt = at;
      recheck = setTimeout(() => watch.evaluate(), at - Date.now() + 5);
    }
    return undefined;
  };
  watch.evaluate();
  let outcome: ReturnType<typeof verdict>;
  try {
    outcome = await watch.waitUntil(
      verdict,
      context.limitMs === 0 ? 2_147_000_000 : context.limitMs,
    );
  } finally {
    clearTimeout(recheck);
  }
  const now = info();
  if (outcome === "no-agent") {
    const program = now.foreground?.comm;
    throw new SkiffError(
      `Pane '${pane.name}' runs ${
        program ? `${program}, not an agent` : "no agent"
      }: it never becomes ${until}. Wait for exited or shell, or start an agent in it`,
      { exit: "NO_AGENT", details: { pane: pane.id, state: now.state, until } },
    );
  }
  if (outcome === "exited") {
    throw new SkiffError(
      `Pane '${pane.name}' has exited${
        now.exit_code === null ? "" : ` (${now.exit_code})`
      }: it never becomes ${until}`,
      { exit: "NOT_RUNNING", details: { pane: pane.id, state: now.state, until } },
    );
  }
  if (outcome !== "reached") {
    // Tenths for a short wait: "after 0.5 s", not "after 1 s" or "after 0 s".
    const seconds = context.limitMs < 10_000
      ? Number((context.limitMs / 1000).toFixed(1))
      : Math.round(context.limitMs / 1000);
    throw new SkiffError(
      `Pane '${pane.name}' is ${now.state}, not ${until}, after ${seconds} s`,
      { exit: "TIMEOUT", details: { pane: pane.id, state: now.state } },
    );
  }
  return { pane: pane.id, name: pane.name, state: until, waited_ms: Date.now() - started };
}
