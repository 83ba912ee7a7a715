/**
 * `skiff mcp`: Skiff as an MCP server on stdio, and `skiff mcp install` /
 * `uninstall` to add it to an agent's MCP configuration. The server is
 * `lib/mcp`; each install subcommand lives in `cmd/mcp/`.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/mod.ts";
import { loadConfig } from "../lib/config/config.ts";
import { openGates } from "../lib/mcp/gates.ts";
import { toolsHelp } from "./mcp/serve_help.ts";
import { command as install } from "./mcp/install.ts";
import { command as uninstall } from "./mcp/uninstall.ts";

/** The `mcp` command: serves when no subcommand is named. */
export const command = defineCommand({
  name: "mcp",
  summary: "Serve Skiff's panes and ledger to an agent or editor over MCP (stdio)",
  description:
    `Run an MCP server on stdin and stdout, for an agent or editor that takes MCP servers (Claude Code, Codex, Gemini CLI, opencode, Cursor, Claude Desktop). Its tools read and drive the workspace as the commands do, with the same checks, and each tool's structured result is what the matching command prints with --json. Tools that change anything are offered only when their gate is open; a call to a closed one is a tool error naming the flag. --project limits every tool to one project's panes and ledger rows. Each pane's screen is a resource (skiff://pane/{pane}/screen), and so is the ledger (skiff://ledger); a subscribed client hears when a screen changes (at most 4 times a second a pane) or its pane's state does. 'skiff mcp install AGENT' adds this server to an agent's configuration. See docs/mcp.md.\n\n${toolsHelp()}`,
  options: [
    {
      name: "allow",
      type: "list",
      value: "G,G…",
      help: "Open these gates: send, new, land, ledger, seen, kill, or all (none: no gate)",
    },
    {
      name: "project",
      short: "p",
      type: "string",
      value: "P",
      help: "Limit every tool to project P's panes and ledger rows",
      complete: "project",
    },
    {
      name: "host",
      type: "string",
      value: "HOST",
      help: "Panes named without HOST: are on HOST (see 'skiff host'); new panes start there",
    },
  ],
  examples: [
    "skiff mcp --allow send,ledger",
    "skiff mcp --allow all --project api",
    "skiff mcp install claude --allow send",
  ],
  exits: [["USAGE", "A bad gate in --allow, or a bad [mcp] allow in projects.toml"]],
  subcommands: [install, uninstall],
  run: async (ctx) => {
    const gates = openGates(ctx.opts.allow, loadConfig());
    // Loaded only to serve: --help and install stay light.
    const { serveMcp } = await import("../lib/mcp/server.ts");
    await serveMcp({ gates, project: ctx.opts.project, host: ctx.opts.host });
  },
});
