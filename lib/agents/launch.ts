/**
 * The command line and environment that start an agent, with Skiff's hooks
 * wired in and, when asked, the agent's continue line, its resume line for
 * one conversation, or a new conversation under an id Skiff chose: as words
 * for a new pane (`skiff new --agent`), or as one shell line to type into a
 * shell.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { loadConfig } from "../config/config.ts";
import { stateDir } from "../config/paths.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";
import { shellLine } from "../platform/shell.ts";
import { selfCommand } from "../platform/spawn_self.ts";
import { type HookCommand, hookSetup } from "./hook_setup.ts";
import type { AgentProfile } from "./profiles/mod.ts";
import { AgentRegistry } from "./registry.ts";

/** Options for {@linkcode agentLaunch}. */
export interface AgentLaunchOptions {
  /** Continue the agent's last conversation in the folder. */
  continue?: boolean;
  /** Resume this conversation (the agent's own id for it). */
  resume?: string;
  /** Start a new conversation under this id, when the agent takes one (see `ResumeRule.newArgs`). */
  conversation?: string;
  /** The environment the agent will run in (default: this process's), for hooks set up through it. */
  env?: Record<string, string | undefined>;
  /** More arguments for the agent, after Skiff's. */
  extra?: string[];
  /** The hook command. */
  hookCommand: HookCommand;
  /** A folder of Skiff's own for hook files. */
  hookDir: string;
}

/** How to start an agent. */
export interface AgentLaunch {
  /** The command line. */
  command: string[];
  /** Environment variables to add. */
  env: Record<string, string>;
  /** The id of the new conversation the command starts, when Skiff chose one. */
  conversation?: string;
  /** Why Skiff's hooks are not wired, when they are not. */
  unwired?: string;
}

/** `args` with `{id}` replaced by `id`. */
export function withId(args: readonly string[], id: string): string[] {
  return args.map((arg) => arg.replaceAll("{id}", id));
}

/** Writes the hook files `profile` needs and returns how to start it. */
export function agentLaunch(profile: AgentProfile, options: AgentLaunchOptions): AgentLaunch {
  if (options.continue && !profile.continueArgs) {
    throw new SkiffError(`${profile.label} has no way to continue a conversation`, {
      exit: "USAGE",
    });
  }
  const resume = profile.resume;
  if (options.resume !== undefined && !resume) {
    throw new SkiffError(`${profile.label} has no way to resume a conversation by its id`, {
      exit: "USAGE",
    });
  }
  // The folder first: whether an agent accepts a settings file can depend on its folder.
  ensureDir(options.hookDir, 0o700);
  const hooks = hookSetup(profile, options.hookCommand, { dir: options.hookDir, env: options.env });
  for (const file of hooks.files) writeFileAtomic(file.path, file.content, { mode: 0o600 });
  const fresh = options.resume === undefined && !options.continue &&
      options.conversation !== undefined && resume?.newArgs
    ? options.conversation
    : undefined;
  const which = options.resume !== undefined
    ? withId(resume!.args, options.resume)
    : options.continue
    ? profile.continueArgs ?? []
    : fresh !== undefined
    ? withId(resume!.newArgs!, fresh)
    : [];
  return {
    command: [
      profile.command,
      ...(profile.startArgs ?? []),
      ...which,
      ...hooks.args,
      ...(options.extra ?? []),
    ],
    env: hooks.env,
    ...(fresh !== undefined ? { conversation: fresh } : {}),
    ...(hooks.unwired ? { unwired: hooks.unwired } : {}),
  };
}

/** The hook command of this program: `skiff hook AGENT EVENT`, as one shell line. */
export function selfHookCommand(agent: string, event: string): string {
  const line = selfCommand(["hook", agent, event]);
  return shellLine([line.program, ...line.args]);
}

/** Options for {@linkcode agentLaunchFor}. */
export interface AgentLaunchForOptions {
  /** Continue the agent's last conversation in the folder. */
  continue?: boolean;
  /**
   * For a new conversation, choose its id (when the agent takes one), so
   * Skiff knows it from the start; the launch says which.
   */
  chooseId?: boolean;
  /** More arguments for the agent, after Skiff's. */
  extra?: string[];
  /** The environment the agent will run in (default: this process's). */
  env?: Record<string, string | undefined>;
  /** The known agents (default: the built-ins and `[agents]` of the user's config). */
  registry?: AgentRegistry;
  /** The hook command (default: this program's `skiff hook`). */
  hookCommand?: HookCommand;
  /** A folder of Skiff's own for hook files (default: `hooks` in the state folder). */
  hookDir?: string;
}

/**
 * Looks agent `id` up, writes its hook files, and returns how to start it,
 * as `skiff new --agent` does. Throws NOT_FOUND for an unknown agent and
 * USAGE for `continue` on an agent that cannot continue.
 */
export function agentLaunchFor(id: string, options: AgentLaunchForOptions = {}): AgentLaunch {
  const registry = options.registry ?? registryFromConfig();
  const profile = registry.get(id);
  if (!profile) {
    throw new SkiffError(`No agent '${id}'. See 'skiff agents'`, { exit: "NOT_FOUND" });
  }
  return agentLaunch(profile, {
    continue: options.continue,
    conversation: options.chooseId && !options.continue && profile.resume?.newArgs
      ? crypto.randomUUID()
      : undefined,
    extra: options.extra,
    env: options.env,
    hookCommand: options.hookCommand ?? selfHookCommand,
    hookDir: options.hookDir ?? join(stateDir(), "hooks"),
  });
}

/** The known agents of the user's config. */
function registryFromConfig(): AgentRegistry {
  const config = loadConfig();
  return new AgentRegistry(config);
}

/**
 * Returns a launch as one line for a POSIX shell, hook environment included:
 * `env K=V … claude --continue …`, each word quoted.
 */
export function launchLine(launch: AgentLaunch): string {
  const env = Object.entries(launch.env).map(([key, value]) => `${key}=${value}`);
  return shellLine(env.length > 0 ? ["env", ...env, ...launch.command] : launch.command);
}

/**
 * Returns the line that starts (or, with `continue`, continues) agent `id`
 * when typed into a shell, with Skiff's hooks wired in, as
 * {@linkcode agentLaunchFor} builds it.
 */
export function agentStartLine(id: string, options: AgentLaunchForOptions = {}): string {
  return launchLine(agentLaunchFor(id, options));
}
