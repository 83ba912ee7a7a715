/**
 * Skiff as an MCP server (`skiff mcp`): any agent or editor that speaks MCP
 * sees the workspace and drives it, within the gates a person opened.
 *
 * - `server.ts`: the stdio server on the official SDK; `call.ts`: tools
 *   within the gates; `resources.ts`: pane screens and the ledger, with
 *   subscriptions (`screen_follow.ts`: a pane's output; `throttle.ts`: at
 *   most 4 notices a second); `access.ts`: the kept connections to skiffd
 *   and the hosts, whose events `event_feed.ts` hands to the subscriptions.
 * - `tools/`: one table of tools (`tools/mod.ts`), each calling one
 *   operation of `lib/ops`.
 * - `gates.ts`: `--allow` and `[mcp] allow`.
 * - `install/`: `skiff mcp install` for each agent's own config file.
 *
 * The server loads the SDK only when it runs: `--help` and `install` do not.
 *
 * @module
 */

export { allowFlag, GATE_HELP, MCP_GATES, type McpGate, openGates, parseAllow } from "./gates.ts";
export { type Tool, type ToolContext, TOOLS } from "./tools/mod.ts";
