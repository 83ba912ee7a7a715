/**
 * Where each agent reads its MCP servers, and the form of Skiff's entry
 * there, as each agent's own `mcp add` writes it (checked against the
 * installed CLIs, see docs/mcp.md):
 *
 * | agent    | file                                                      | entry at                  |
 * | -------- | --------------------------------------------------------- | ------------------------- |
 * | claude   | `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`   | `mcpServers.skiff` (JSON) |
 * | codex    | `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`     | `[mcp_servers.skiff]`     |
 * | gemini   | `$GEMINI_CLI_HOME/.gemini/settings.json`, else `~/.gemini/…` | `mcpServers.skiff` (JSONC) |
 * | opencode | `opencode.jsonc`, `opencode.json` or `config.json` in `$OPENCODE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` | `mcp.skiff` (JSONC) |
 *
 * @module
 */

import { join } from "../../platform/path.ts";
import { homeDir } from "../../config/paths.ts";
import type { JsonValue } from "./jsonc_edit.ts";

/** The agents whose MCP configuration `skiff mcp install` edits. */
export const INSTALL_AGENTS = ["claude", "codex", "gemini", "opencode"] as const;

/** One of {@linkcode INSTALL_AGENTS}. */
export type InstallAgent = typeof INSTALL_AGENTS[number];

/** The variables that say where Skiff's files and skiffd are: carried into the entry when set. */
export const PLACE_VARIABLES = [
  "SKIFF_CONFIG_DIR",
  "SKIFF_STATE_DIR",
  "SKIFF_DATA_DIR",
  "SKIFF_SOCKET",
  "SKIFF_LEDGER",
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "XDG_DATA_HOME",
  "XDG_RUNTIME_DIR",
] as const;

/** The name of Skiff's entry among an agent's servers. */
export const ENTRY_NAME = "skiff";

/** The command an entry runs: the program, its arguments and its environment. */
export interface ServerCommand {
  /** The program, by absolute path. */
  program: string;
  /** Its arguments. */
  args: string[];
  /** Environment variables it needs (where Skiff's files are), possibly none. */
  env: Record<string, string>;
}

/** Where an agent's file is and what Skiff's entry in it looks like. */
export interface AgentConfig {
  /** The agent. */
  agent: InstallAgent;
  /** The file. */
  file: string;
  /** The file's format. */
  format: "json" | "toml";
  /** The path of the entry in the file (for TOML: the table's). */
  path: string[];
  /** The entry for `command`. */
  entry(command: ServerCommand): Record<string, JsonValue>;
}

function env(name: string): string | undefined {
  const value = Deno.env.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/** The first of `names` that exists in `dir`, else `fallback` there. */
function firstFile(dir: string, names: string[], fallback: string): string {
  for (const name of names) {
    try {
      Deno.statSync(join(dir, name));
      return join(dir, name);
    } catch {
      // Not this one.
    }
  }
  return join(dir, fallback);
}

/** `agent`'s MCP configuration, honouring its own folder's environment variable. */
export function agentConfig(agent: InstallAgent): AgentConfig {
  const withEnv = (command: ServerCommand): Record<string, JsonValue> =>
    Object.keys(command.env).length > 0 ? { env: command.env } : {};
  switch (agent) {
    case "claude":
      return {
        agent,
        file: join(env("CLAUDE_CONFIG_DIR") ?? homeDir(), ".claude.json"),
        format: "json",
        path: ["mcpServers", ENTRY_NAME],
        entry: (c) => ({ type: "stdio", command: c.program, args: c.args, env: c.env }),
      };
    case "codex":
      return {
        agent,
        file: join(env("CODEX_HOME") ?? join(homeDir(), ".codex"), "config.toml"),
        format: "toml",
        path: ["mcp_servers", ENTRY_NAME],
        entry: (c) => ({ command: c.program, args: c.args, ...withEnv(c) }),
      };
    case "gemini":
      return {
        agent,
        file: join(env("GEMINI_CLI_HOME") ?? homeDir(), ".gemini", "settings.json"),
        format: "json",
        path: ["mcpServers", ENTRY_NAME],
        entry: (c) => ({ command: c.program, args: c.args, ...withEnv(c) }),
      };
    case "opencode": {
      const dir = env("OPENCODE_CONFIG_DIR") ??
        join(env("XDG_CONFIG_HOME") ?? join(homeDir(), ".config"), "opencode");
      return {
        agent,
        // opencode reads the first of these that exists; opencode.json is what its docs make.
        file: firstFile(dir, ["opencode.jsonc", "opencode.json", "config.json"], "opencode.json"),
        format: "json",
        path: ["mcp", ENTRY_NAME],
        entry: (c) => ({
          type: "local",
          command: [c.program, ...c.args],
          enabled: true,
          ...(Object.keys(c.env).length > 0 ? { environment: c.env } : {}),
        }),
      };
    }
  }
}
