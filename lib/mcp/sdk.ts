/**
 * The parts of the MCP SDK the server uses, with their types. The SDK's
 * package maps `./*` to `./dist/esm/*.d.ts`, so a `….js` import finds no
 * types (they would be `any`): each import names the types of the same
 * path without `.js`, which the map does resolve.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  type CallToolRequest,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type SubscribeRequest,
  SubscribeRequestSchema,
  type UnsubscribeRequest,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
