/**
 * The gates of `skiff mcp`: nothing that changes the workspace is offered
 * unless a person opened its gate, with `--allow` or `[mcp] allow` in
 * projects.toml (the flag wins).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { type Config, MCP_GATES, type McpGate, readMcpGates } from "../config/mod.ts";

export { MCP_GATES, type McpGate };

/** What each gate lets a client do, for `--help` and docs (the tools are named from the table). */
export const GATE_HELP: Record<McpGate, string> = {
  send: "type into agents",
  new: "start panes",
  land: "land a pane's worktree",
  ledger: "add and change ledger rows",
  seen: "clear panes' unread flags",
  kill: "end panes",
};

/**
 * Reads `--allow` values (each may hold several, comma-separated; `none`
 * alone opens nothing, whatever projects.toml says): `USAGE` for a word
 * that is no gate.
 */
export function parseAllow(values: readonly string[]): McpGate[] {
  const words = values.flatMap((v) => v.split(",")).map((w) => w.trim()).filter((w) => w !== "");
  if (words.length === 1 && words[0] === "none") return [];
  return readMcpGates(
    words,
    (word) =>
      new SkiffError(
        `Bad gate '${word}' in --allow: use ${MCP_GATES.join(", ")}, all or none (comma-separated)`,
        { exit: "USAGE", details: { gate: word } },
      ),
  );
}

/**
 * The gates open: `--allow` when given (even empty), else `[mcp] allow`,
 * else none.
 */
export function openGates(allow: readonly string[] | undefined, config: Config): McpGate[] {
  if (allow !== undefined && allow.length > 0) return parseAllow(allow);
  return config.mcp.allow ?? [];
}

/** The flag that would open `gate`, for the error of a call to a closed tool. */
export function allowFlag(gate: McpGate): string {
  return `--allow ${gate}`;
}
