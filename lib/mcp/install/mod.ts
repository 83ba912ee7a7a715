/**
 * `skiff mcp install` and `uninstall`: Skiff's entry in each agent's own MCP
 * configuration. `agents.ts` says where each agent reads it and in what
 * form; `install.ts` edits it in place; `jsonc_edit.ts` sets and removes
 * one entry of a JSON (with comments) file, keeping every other byte, and
 * `made.ts` remembers what install made around it; `toml_entry.ts` owns
 * exactly Skiff's keys of a TOML entry.
 *
 * @module
 */

export {
  type AgentConfig,
  agentConfig,
  ENTRY_NAME,
  INSTALL_AGENTS,
  type InstallAgent,
  type ServerCommand,
} from "./agents.ts";
export {
  installMcp,
  type InstallResult,
  installSnippet,
  PLACE_VARIABLES,
  type ServeArgs,
  serverCommand,
  uninstallMcp,
} from "./install.ts";
