/**
 * The command line and environment that start an agent, with Skiff's hooks
 * wired in and, when asked, the agent's continue line: as words for a new
 * pane (`skiff new --agent`), or as one shell line to type into a shell.
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
import type { AgentProfile } from "./profile.ts";
import { AgentRegistry } from "./registry.ts";

/** Options for {@linkcode agentLaunch}. */
export interface AgentLaunchOptions {
  /** Continue the agent's last conversation in the folder. */
  continue?: boolean;
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
}

/** Writes the hook files `profile` needs and returns how to start it. */
export function agentLaunch(profile: AgentProfile, options: AgentLaunchOptions): AgentLaunch {
  if (options.continue && !profile.continueArgs) {
    throw new SkiffError(`${profile.label} has no way to continue a conversation`, {
      exit: "USAGE",
    });
  }
  const hooks = hookSetup(profile, options.hookCommand, { dir: options.hookDir });
  if (hooks.files.length > 0) ensureDir(options.hookDir, 0o700);
  for (const file of hooks.files) writeFileAtomic(file.path, file.content, { mode: 0o600 });
  return {
    command: [
      profile.command,
      ...(profile.startArgs ?? []),
      ...(options.continue ? profile.continueArgs ?? [] : []),
      ...hooks.args,
      ...(options.extra ?? []),
    ],
    env: hooks.env,
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
  /** More arguments for the agent, after Skiff's. */
  extra?: string[];
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
    extra: options.extra,
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
