/**
 * The live workspace's part in resuming agents during a restore: each
 * pane's plan is made from the workspace's config and records (see
 * `resume.ts`), and once the pane's new shell shows its prompt its resume
 * line is typed, in the background, with the outcome kept for
 * `skiff explain`.
 *
 * @module
 */

import type { Config } from "../../config/config.ts";
import { stateDir } from "../../config/paths.ts";
import { selfHookCommand } from "../../agents/launch.ts";
import type { AgentRegistry } from "../../agents/registry.ts";
import { join } from "../../platform/path.ts";
import type { PaneResume } from "../../protocol/panes.ts";
import type { Pane, PaneWatch } from "../panes/mod.ts";
import type { RestoreHost } from "./restore.ts";
import { planResume, typeIntoNewShell } from "./resume.ts";
import type { SavedPane, SavedSession } from "../records/mod.ts";

/** What {@linkcode resumeSteps} needs from the live workspace. */
export interface ResumeStepsOptions extends ResumeInOptions {
  /** The agents known. */
  registry: () => AgentRegistry;
  /** The current config. */
  config: () => Config;
  /** The session of pane `saved`. */
  session: (saved: SavedPane) => SavedSession | undefined;
  /** The environment of pane `saved`'s process. */
  env: (saved: SavedPane) => Record<string, string>;
}

/** The resume steps of a restore (see `restore.ts`), wired to the live workspace. */
export function resumeSteps(
  options: ResumeStepsOptions,
): Pick<RestoreHost, "planResume" | "started"> {
  return {
    planResume: (saved) =>
      planResume(saved, {
        registry: options.registry(),
        config: options.config(),
        session: options.session(saved),
        env: options.env(saved),
        hookCommand: selfHookCommand,
        hookDir: join(stateDir(), "hooks"),
      }),
    started: (pane, resume) => resumeIn(pane, resume, options),
  };
}

/** What {@linkcode resumeIn} needs from the live workspace. */
export interface ResumeInOptions {
  /** The agent watch of the pane (it tells when the prompt shows). */
  watch: (pane: Pane) => PaneWatch;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Whether `pane` is still the workspace's (not killed meanwhile). */
  live: (pane: Pane) => boolean;
  /** The pane's conversation is no longer live: its agent did not come back. */
  agentLeft: (pane: Pane) => void;
}

/**
 * Types the resume line of `pane`'s agent once its new shell shows its
 * prompt, and keeps the outcome in `pane.resume`. A skipped or failed resume
 * keeps the conversation's id, no longer live.
 */
export function resumeIn(
  pane: Pane,
  resume: PaneResume | undefined,
  options: ResumeInOptions,
): void {
  pane.resume = resume;
  if (!resume) return;
  const log = options.log;
  if (resume.state !== "waiting") {
    log(`pane ${pane.id}: ${resume.agent} not resumed: ${resume.why}`);
    options.agentLeft(pane);
    return;
  }
  log(`pane ${pane.id}: resuming ${resume.agent} conversation ${resume.conversation}`);
  typeIntoNewShell(pane, options.watch(pane), resume.line!).then(() => {
    if (pane.resume === resume) pane.resume = { ...resume, state: "typed" };
    log(`pane ${pane.id}: typed ${resume.agent}'s resume line`);
  }, (error) => {
    const why = (error as Error)?.message ?? String(error);
    if (pane.resume === resume) pane.resume = { ...resume, state: "failed", why };
    log(`pane ${pane.id}: ${resume.agent} not resumed: ${why}`);
    if (options.live(pane)) options.agentLeft(pane);
  });
}
