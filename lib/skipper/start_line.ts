/**
 * The line Skiff types into the Skiff agent's shell to start its agent:
 * the agent's command with Skiff's hooks wired in, and, when asked and the
 * agent has one, its continue line.
 *
 * @module
 */

import { join } from "node:path";
import { agentLaunch, type AgentProfile, AgentRegistry } from "../agents/mod.ts";
import type { Config } from "../config/config.ts";
import { stateDir } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import { shellLine } from "../platform/shell.ts";
import { selfCommand } from "../platform/spawn_self.ts";

/** The agent profile the Skiff agent runs; throws exit `NOT_FOUND` for an unknown one. */
export function skiffAgentProfile(config: Config): AgentProfile {
  const id = config.skiffAgent.agent;
  const registry = new AgentRegistry({ document: config.document, file: config.file });
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
 * The line that starts `profile` in a shell. With `continue`, the agent's
 * continue line when it has one; an agent without one (a custom agent)
 * starts a new conversation, which is not an error.
 *
 * This is the one place that builds the line; when `lib/agents` offers the
 * start line itself, this calls it.
 */
export function startLine(profile: AgentProfile, options: StartLineOptions): StartLine {
  const continues = options.continue && profile.continueArgs !== null;
  const launch = agentLaunch(profile, {
    continue: continues,
    hookDir: options.hookDir ?? join(stateDir(), "hooks"),
    hookCommand: (agent, event) => {
      const line = selfCommand(["hook", agent, event]);
      return shellLine([line.program, ...line.args]);
    },
  });
  const env = Object.entries(launch.env).map(([key, value]) => `${key}=${value}`);
  const words = env.length > 0 ? ["env", ...env, ...launch.command] : launch.command;
  return { line: shellLine(words), continues };
}
