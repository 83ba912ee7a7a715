/**
 * `skiff mcp uninstall AGENT`: remove Skiff from an agent's MCP servers.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { type InstallAgent, uninstallMcp } from "../../lib/mcp/install/mod.ts";
import { AGENT_ARG, AGENT_NAMES } from "./agent_arg.ts";

/** The `mcp uninstall` command. */
export const command = defineCommand({
  name: "uninstall",
  summary: "Remove Skiff from an agent's MCP servers",
  description:
    "Remove Skiff's entry from the MCP configuration that AGENT reads, in place: only that entry goes; the file's other servers, settings and comments stay. Without an entry, nothing changes.",
  args: [AGENT_ARG],
  examples: ["skiff mcp uninstall claude"],
  exits: [["DATA", "The agent's file cannot be read, parsed or written; it was left as it was"]],
  run: (ctx) => {
    const agent = ctx.args.AGENT as InstallAgent;
    const result = uninstallMcp(agent);
    ctx.out.result(result, () =>
      ctx.out.line(
        result.changed
          ? `Removed Skiff from ${AGENT_NAMES[agent]}'s MCP servers in ${result.file}`
          : `Skiff is not in ${
            AGENT_NAMES[agent]
          }'s MCP servers in ${result.file}; nothing changed`,
      ));
    return Promise.resolve();
  },
});
