/**
 * The whole config checked, `[agents.NAME]` tables included: the config room
 * reads every other table, but the agents' tables are read here, in the room
 * that knows agent profiles.
 *
 * @module
 */

import { type Config, loadConfig } from "../config/config.ts";
import { AgentRegistry } from "./registry.ts";

/**
 * Reads the config file and checks all of it: what skiffd checks before it
 * starts and on a reload. Throws the first error (exit `USAGE`).
 */
export function loadCheckedConfig(file?: string): Config {
  const config = file === undefined ? loadConfig() : loadConfig(file);
  checkAgents(config);
  return config;
}

/** Throws the first error of `config`'s `[agents.NAME]` tables, if any. */
export function checkAgents(config: Config): void {
  new AgentRegistry(config);
}
