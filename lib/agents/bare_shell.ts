/**
 * Whether a pane is a bare shell at its prompt, the only place Skiff types
 * a line that starts an agent: the Skiff agent's start line (`lib/skipper`)
 * and a restored pane's resume line (`lib/daemon`) both ask this, then type
 * with a guarded send against the person's keystroke count read with the
 * check, so a person typing meanwhile makes Skiff type nothing.
 *
 * @module
 */

import type { PaneInfo } from "../protocol/panes.ts";

/** The facts about a pane that tell whether it is a bare shell. */
export type ShellFacts = Pick<PaneInfo, "status" | "agent" | "foreground" | "pid">;

/**
 * Why `pane` is not a bare shell at its prompt, or `undefined` when it is.
 * `expected` is the agent about to be started there, for a clearer reason
 * when it already runs.
 */
export function bareShellProblem(
  pane: ShellFacts,
  expected?: { id: string; label: string },
): string | undefined {
  if (pane.status !== "running") return "its process has exited";
  if (expected && pane.agent === expected.id) return `${expected.label} runs in it`;
  if (pane.agent !== null) return `another agent (${pane.agent}) is in front`;
  // Without process facts (not Linux), a pane with no agent counts as its shell.
  if (pane.foreground && pane.foreground.pid !== pane.pid) {
    return `a program (${pane.foreground.comm}) is in front of the shell`;
  }
  return undefined;
}
