/**
 * The line Skiff types into the Skiff agent's shell to start its agent:
 * the agent's command with Skiff's hooks wired in, and, when asked and the
 * agent has one, its continue line.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import {
  agentLaunch,
  type AgentProfile,
  AgentRegistry,
  launchLine,
  selfHookCommand,
} from "../agents/mod.ts";
import type { Config } from "../config/config.ts";
import { stateDir } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";

/** The agent profile the Skiff agent runs; throws exit `NOT_FOUND` for an unknown one. */
export function skiffAgentProfile(config: Config): AgentProfile {
  const id = config.skiffAgent.agent;
  const registry = new AgentRegistry(config);
  const profile = registry.get(id);
  if (!profile) {
    throw new SkiffError(
      `No agent '${id}' for the Skiff agent. See 'skiff agents', then 'skiff settings set agent ID'`,
      { exit: "NOT_FOUND" },
    );
  }
  return profile;
}

/** A start line, and whether it continues the last conversation. */
export interface StartLine {
  /** The line, quoted for a POSIX shell. */
  line: string;
  /** Whether it is the agent's continue line. */
  continues: boolean;
}

/** Options for {@linkcode startLine}. */
export interface StartLineOptions {
  /** Continue the last conversation, when the agent can. */
  continue: boolean;
  /** Where hook files go (default: `hooks` in the state folder). */
  hookDir?: string;
}

/**
 * The line that starts `profile` in a shell, hook environment included. With
 * `continue`, the agent's continue line when it has one; an agent without one
 * (a custom agent with no `continue_args`) starts a new conversation, which
 * is not an error.
 */
export function startLine(profile: AgentProfile, options: StartLineOptions): StartLine {
  const continues = options.continue && profile.continueArgs !== null;
  const launch = agentLaunch(profile, {
    continue: continues,
    hookDir: options.hookDir ?? join(stateDir(), "hooks"),
    hookCommand: selfHookCommand,
  });
  return { line: launchLine(launch), continues };
}
