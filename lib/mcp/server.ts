/**
 * The MCP server over stdio, on the official SDK: the tools within the
 * gates (`call.ts`), the resources and their subscriptions
 * (`resources.ts`), and one kept connection to skiffd, and to each host
 * touched (`access.ts`), for the server's whole life, which answers the
 * calls and carries the events; a subscribed pane's screen is followed on
 * a connection of its own.
 *
 * @module
 */

import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  Server,
  StdioServerTransport,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "./sdk.ts";
import process from "node:process";
import { SkiffError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { openAgentLedger } from "../skipper/ledger.ts";
import { KeptSkiffd } from "./access.ts";
import { callTool, listTools } from "./call.ts";
import type { McpGate } from "./gates.ts";
import { Resources, SCREEN_TEMPLATE } from "./resources.ts";
import type { ToolContext } from "./tools/mod.ts";

/** Options for {@linkcode serveMcp}. */
export interface ServeOptions {
  /** The gates open. */
  gates: readonly McpGate[];
  /** Limit every tool to this project's panes and ledger rows. */
  project?: string;
  /** The host a pane ref without `HOST:` is on. */
  host?: string;
  /** skiffd's socket (default: the configured one). */
  socket?: string;
}

/** MCP's error code for a request whose params are wrong. */
const INVALID_PARAMS = -32602;

/** A resource failure as MCP's error: the CLI's reason and code name. */
function resourceError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const message = error instanceof SkiffError
    ? `${error.message} (${error.exit.toLowerCase()})`
    : `Internal error: ${(error as Error).message}`;
  return new McpError(
    INVALID_PARAMS,
    message,
    error instanceof SkiffError ? { code: error.exit.toLowerCase(), ...error.details } : undefined,
  );
}

/** Builds the server (not connected yet): for stdio, see {@linkcode serveMcp}. */
export function mcpServer(options: ServeOptions): { server: Server; close(): void } {
  const access = new KeptSkiffd(options.socket);
  const context: ToolContext = {
    access,
    project: options.project,
    host: options.host,
    gates: new Set(options.gates),
    ledger: (open) => openAgentLedger(open),
  };
  const server = new Server(
    { name: "skiff", title: "Skiff", version: VERSION },
    {
      capabilities: { tools: {}, resources: { subscribe: true, listChanged: false } },
      instructions:
        "Skiff's workspace: the panes where coding agents run (list_panes, capture_pane, wait_for_pane, pane_diff) and the Skiff agent's task ledger (ledger_list, ledger_show). Tools that change anything are offered only when the person opened their gate (skiff mcp --allow). A pane is named by its id, its name, project/name, or HOST:PANE.",
    },
  );
  const resources = new Resources(context, access, (uri) => {
    server.sendResourceUpdated({ uri }).catch(() => {});
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(context.gates) }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) => callTool(request.params.name, request.params.arguments, context),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    try {
      return { resources: await resources.list() };
    } catch (error) {
      throw resourceError(error);
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{
      uriTemplate: SCREEN_TEMPLATE,
      name: "pane-screen",
      title: "A pane's screen",
      description:
        "What a pane shows now, as text: {pane} is its id, name, project/name or HOST:PANE",
      mimeType: "text/plain",
    }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: await resources.read(request.params.uri) };
    } catch (error) {
      throw resourceError(error);
    }
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      await resources.subscribe(request.params.uri);
      return {};
    } catch (error) {
      throw resourceError(error);
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    resources.unsubscribe(request.params.uri);
    return {};
  });
  return {
    server,
    close: () => {
      resources.close();
      access.close();
    },
  };
}

/** Serves MCP on stdin and stdout until the client closes them. */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const { server, close } = mcpServer(options);
  const closed = Promise.withResolvers<void>();
  server.onclose = () => closed.resolve();
  // The transport reads stdin but does not end with it: a client that closed its end is gone.
  process.stdin.once("end", () => server.close());
  await server.connect(new StdioServerTransport(process.stdin, process.stdout));
  await closed.promise;
  close();
}
