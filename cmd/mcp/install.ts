/**
 * `skiff mcp install AGENT`: add Skiff to an agent's MCP servers.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { parseAllow } from "../../lib/mcp/gates.ts";
import {
  INSTALL_AGENTS,
  type InstallAgent,
  installMcp,
  installSnippet,
} from "../../lib/mcp/install/mod.ts";
import { AGENT_ARG, AGENT_NAMES } from "./agent_arg.ts";

/** The `mcp install` command. */
export const command = defineCommand({
  name: "install",
  summary: "Add Skiff to an agent's MCP servers",
  description: `Add Skiff's server to the MCP configuration that AGENT reads (${
    INSTALL_AGENTS.join(", ")
  }), in place: the file's other servers, settings and comments stay. The entry runs this skiff by its absolute path, with the gates, project and host given here, and with the variables that say where Skiff's files are (SKIFF_*, XDG_*) when they are set, so the agent's server reaches this skiffd. Installing again with the same options changes nothing; with others it updates Skiff's entry. The agent's folder variable is honoured (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, OPENCODE_CONFIG_DIR). --print prints the entry instead, for adding it by hand.`,
  args: [AGENT_ARG],
  options: [
    {
      name: "allow",
      type: "list",
      value: "G,G…",
      help:
        "The gates the server opens: send, new, land, ledger, seen, kill, all, or none (whatever [mcp] allow says)",
    },
    {
      name: "project",
      short: "p",
      type: "string",
      value: "P",
      help: "Limit the server to project P",
      complete: "project",
    },
    { name: "host", type: "string", value: "HOST", help: "Bare pane names are on HOST" },
    { name: "print", type: "boolean", help: "Print the entry and its file; change nothing" },
  ],
  examples: [
    "skiff mcp install claude --allow send,ledger",
    "skiff mcp install codex --allow all --project api",
    "skiff mcp install --print opencode",
  ],
  exits: [["DATA", "The agent's file cannot be read, parsed or written; it was left as it was"]],
  run: (ctx) => {
    const agent = ctx.args.AGENT as InstallAgent;
    const serve = {
      gates: ctx.opts.allow.length > 0 ? parseAllow(ctx.opts.allow) : undefined,
      project: ctx.opts.project,
      host: ctx.opts.host,
    };
    if (ctx.opts.print) {
      const snippet = installSnippet(agent, serve);
      ctx.out.result({ agent, file: snippet.file, entry: snippet.entry }, () => {
        ctx.out.notice(`Add this to ${snippet.file} (${AGENT_NAMES[agent]}'s MCP servers):`);
        ctx.out.line(snippet.text.replace(/\n$/, ""));
      });
      return Promise.resolve();
    }
    const result = installMcp(agent, serve);
    ctx.out.result(result, () =>
      ctx.out.line(
        result.changed
          ? `Added Skiff to ${AGENT_NAMES[agent]}'s MCP servers in ${result.file}`
          : `Skiff is already in ${
            AGENT_NAMES[agent]
          }'s MCP servers in ${result.file}; nothing changed`,
      ));
    return Promise.resolve();
  },
});
