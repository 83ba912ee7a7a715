/**
 * Which real agents the tests under tests/real/ run: `SKIFF_REAL_AGENTS`
 * selects them (a comma list, or `all`; Claude Code and Codex by default)
 * and an agent that is not installed is left out, unless
 * `SKIFF_REQUIRE_AGENTS` names it (as CI does): then its test runs and
 * fails on the missing install.
 *
 * @module
 */

import { assert } from "../helpers/assert.ts";
import { agentInstalled, type AgentName, AGENTS } from "./agent_env.ts";

function listed(variable: string, fallback: string): string[] {
  const value = Deno.env.get(variable) ?? fallback;
  return value === "all" || value === "1" ? [...AGENTS] : value.split(",").filter(Boolean);
}

/** The agents `SKIFF_REAL_AGENTS` selects. */
export const SELECTED_AGENTS: readonly string[] = listed("SKIFF_REAL_AGENTS", "claude,codex");

/** The agents `SKIFF_REQUIRE_AGENTS` names: their tests run even when they are not installed. */
export const REQUIRED_AGENTS: readonly string[] = listed("SKIFF_REQUIRE_AGENTS", "");

/** Whether the tests of `agent` run: it is required, or selected and installed. */
export function runsAgent(agent: AgentName): boolean {
  return REQUIRED_AGENTS.includes(agent) ||
    (SELECTED_AGENTS.includes(agent) && agentInstalled(agent));
}

/** Fails the test of a required `agent` that is not installed, with the line that installs it. */
export function assertInstalled(agent: AgentName): void {
  assert(agentInstalled(agent), `${agent} is not installed: run tests/agents/install.sh ${agent}`);
}
