/**
 * Resuming each agent's own conversation after a restore: a pane whose
 * agent ran when skiffd stopped or crashed gets a new shell in the
 * conversation's folder, and, once that shell shows its prompt, Skiff types
 * the agent's resume line for that conversation (`claude --resume ID`,
 * `codex resume ID`, …) with Skiff's hooks wired in, as `skiff new --agent`
 * starts it. Quitting the agent leaves the shell.
 *
 * The line is typed only when the conversation's record is where the agent
 * keeps it, only into a bare shell at its prompt, and never when a person
 * typed meanwhile. Otherwise the pane stays a shell and `skiff explain` says
 * why. The Skiff agent's session is left to its own rule (its continue line,
 * when it is opened). On by default; off with `[daemon] resume = false`,
 * `resume = false` in a project, or `skiff new --no-resume`.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import { isDirectory } from "../../platform/files.ts";
import type { Config } from "../../config/config.ts";
import { bareShellProblem } from "../../agents/bare_shell.ts";
import { agentLaunch, launchLine } from "../../agents/launch.ts";
import type { HookCommand } from "../../agents/hook_setup.ts";
import { findRecord } from "../../agents/records.ts";
import type { AgentRegistry } from "../../agents/registry.ts";
import type { PaneResume } from "../../protocol/panes.ts";
import { SKIFF_AGENT_MARK } from "../../protocol/sessions.ts";
import { guardedSend, type Pane, type PaneWatch } from "../panes/mod.ts";
import type { SavedPane, SavedSession } from "../records/mod.ts";

/** How long the new shell has to show its prompt before the resume is given up. */
export const PROMPT_TIMEOUT_MS = 30_000;
/** How long a shell's output must be quiet before its prompt counts as drawn. */
const PROMPT_QUIET_MS = 250;
/** How often the new shell is looked at while the resume waits for its prompt. */
const LOOK_EVERY_MS = 50;

/** What {@linkcode planResume} needs. */
export interface ResumeContext {
  /** The known agents. */
  registry: AgentRegistry;
  /** The config. */
  config: Config;
  /** The pane's session. */
  session: SavedSession | undefined;
  /** The environment the pane's programs run in. */
  env: Record<string, string>;
  /** The hook command. */
  hookCommand: HookCommand;
  /** A folder of Skiff's own for hook files. */
  hookDir: string;
}

/**
 * Decides whether a restore resumes `saved`'s agent, and with which line.
 * `undefined` when no agent ran in the pane when skiffd stopped.
 */
export async function planResume(
  saved: SavedPane,
  context: ResumeContext,
): Promise<PaneResume | undefined> {
  const conversation = saved.conversation;
  if (!conversation?.live) return unknownConversation(saved, context);
  const base = {
    agent: conversation.agent,
    conversation: conversation.id,
    at: new Date().toISOString(),
  };
  const skip = (why: string): PaneResume => ({ ...base, state: "skipped", line: null, why });
  if (context.session && Object.hasOwn(context.session.marks, SKIFF_AGENT_MARK)) {
    return skip(
      "the Skiff agent continues its last conversation by its own rule when it is opened",
    );
  }
  if (saved.no_resume) return skip("the pane was made with --no-resume");
  const project = context.config.projects.find((p) => p.name === saved.project);
  if (project?.resume === false) {
    return skip(`resume is off for project ${project.name} ([projects.${project.name}] resume)`);
  }
  if (!context.config.daemon.resume) return skip("resume is off ([daemon] resume = false)");
  const profile = context.registry.get(conversation.agent);
  if (!profile) return skip(`no agent '${conversation.agent}' is known now (see 'skiff agents')`);
  if (!profile.resume) {
    return skip(`${profile.label} has no way to resume a conversation by its id`);
  }
  if (!isDirectory(conversation.cwd)) return skip(`its folder ${conversation.cwd} is gone`);
  const search = await findRecord(profile.resume.record, {
    id: conversation.id,
    path: conversation.record,
    env: context.env,
  });
  if (!search.found) {
    return skip(
      `${profile.label} keeps no record of conversation ${conversation.id} (looked at ${
        search.looked.join(", ") || "nothing"
      })`,
    );
  }
  const launch = agentLaunch(profile, {
    resume: conversation.id,
    extra: saved.agent_launch?.agent === profile.id ? saved.agent_launch.args : [],
    env: context.env,
    hookCommand: context.hookCommand,
    hookDir: context.hookDir,
  });
  return { ...base, state: "waiting", line: launchLine(launch), why: null };
}

/**
 * For a pane whose agent ran but named no conversation: one `skiff new
 * --agent` started as the pane's own process, which ran until skiffd
 * stopped. The pane stays a shell; this says why.
 */
function unknownConversation(saved: SavedPane, context: ResumeContext): PaneResume | undefined {
  const launch = saved.agent_launch;
  if (!launch || saved.conversation?.agent === launch.agent) return undefined;
  const profile = context.registry.get(launch.agent);
  if (!profile || saved.command[0] !== profile.command) return undefined;
  return {
    agent: launch.agent,
    conversation: "",
    at: new Date().toISOString(),
    state: "skipped",
    line: null,
    why: profile.resume
      ? `no hook of ${profile.label} named its conversation, so Skiff does not know which to resume`
      : `${profile.label} has no way to resume a conversation by its id`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `pane`'s new shell shows its prompt (it printed, then went
 * quiet, and nothing runs in front of it), then types `line` and Enter with
 * a guarded send against the person's keystroke count read with the check.
 * Throws a {@linkcode SkiffError} that says why nothing was typed.
 */
export async function typeIntoNewShell(
  pane: Pane,
  watch: PaneWatch,
  line: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? PROMPT_TIMEOUT_MS);
  const inputs = pane.personInputs;
  for (;;) {
    if (pane.status !== "running") {
      throw new SkiffError("the new shell exited", { exit: "NOT_RUNNING" });
    }
    if (pane.personInputs !== inputs) {
      throw new SkiffError("a person typed in the new shell first", { exit: "TYPING" });
    }
    const drawn = pane.outputBytes > 0 && Date.now() - pane.outputAt >= PROMPT_QUIET_MS;
    if (drawn) {
      watch.evaluate();
      const foreground = pane.foreground();
      const problem = bareShellProblem({
        status: pane.status,
        agent: watch.tracker.agent?.id ?? null,
        foreground: foreground ?? null,
        pid: pane.pid,
      });
      if (!problem) break;
      if (Date.now() >= deadline) throw new SkiffError(`the pane is not a bare shell: ${problem}`);
    } else if (Date.now() >= deadline) {
      throw new SkiffError(
        `the new shell showed no prompt within ${Math.round(PROMPT_TIMEOUT_MS / 1000)} s`,
      );
    }
    await sleep(LOOK_EVERY_MS);
  }
  await guardedSend(pane, watch, {
    text: line,
    enter: true,
    any: true,
    turnTimeoutMs: 0,
    sinceInputs: inputs,
  });
}
