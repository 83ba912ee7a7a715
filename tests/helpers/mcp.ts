/**
 * The SDK's own MCP client, talking over stdio to a real `skiff mcp` of
 * this checkout in a test's isolated Skiff.
 *
 * @module
 */

// The SDK's `./*` export finds no types for `….js`: each names its types' path (see lib/mcp/sdk.ts).
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAIN, type SkiffEnv } from "./skiff.ts";

/** A connected client, and the server's stderr so far. */
export interface McpSession {
  /** The client. */
  client: Client;
  /** What the server wrote on stderr. */
  stderr(): string;
  /** Closes the client and so the server. */
  close(): Promise<void>;
}

/** A tool's result as the SDK gives it. */
export interface CallResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Starts `skiff mcp args…` and connects the SDK's client to it. */
export async function connectMcp(
  skiff: SkiffEnv,
  args: string[] = [],
  options: { cwd?: string; onUpdated?: (uri: string) => void } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "-q", MAIN, "mcp", ...args],
    env: skiff.env,
    cwd: options.cwd ?? skiff.env.HOME,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "skiff-test", version: "1.0.0" });
  if (options.onUpdated) {
    const updated = options.onUpdated;
    client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => updated(n.params.uri),
    );
  }
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Calls `name` with `args` and returns the result as the SDK gives it. */
export async function call(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
  options: { timeout?: number } = {},
): Promise<CallResult> {
  return await session.client.callTool({ name, arguments: args }, undefined, {
    timeout: options.timeout ?? 60_000,
  }) as CallResult;
}

/** The JSON error of a tool error (its first part), as the CLI prints it. */
export function toolErrorOf(result: CallResult): { code: string; exit: number; message: string } {
  if (!result.isError) throw new Error(`not a tool error: ${JSON.stringify(result)}`);
  return JSON.parse(result.content[0].text).error;
}
