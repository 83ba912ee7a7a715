/**
 * The `AGENT` argument of `skiff mcp install` and `uninstall`.
 *
 * @module
 */

import { INSTALL_AGENTS, type InstallAgent } from "../../lib/mcp/install/mod.ts";

/** Each agent's name for people. */
export const AGENT_NAMES: Record<InstallAgent, string> = {
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "opencode",
};

/** The argument. */
export const AGENT_ARG = {
  name: "AGENT",
  required: true,
  help: `The agent: ${INSTALL_AGENTS.join(", ")}`,
  choices: INSTALL_AGENTS,
} as const;
