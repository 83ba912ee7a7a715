/**
 * The command line and environment that start an agent in a pane, with
 * Skiff's hooks wired in and, when asked, the agent's continue line.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";
import { type HookCommand, hookSetup } from "./hooks.ts";
import type { AgentProfile } from "./profile.ts";

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
