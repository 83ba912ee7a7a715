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
import { assertEquals } from "./assert.ts";
import { MAIN, type SkiffEnv, waitFor } from "./skiff.ts";

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

/**
 * Rings pane `pane`'s bell (`PANE` or `HOST:PANE`, a shell), waits until it
 * is unread for it, and its screen is quiet again.
 */
export async function ringBell(skiff: SkiffEnv, pane: string): Promise<void> {
  const host = pane.includes(":") ? pane.slice(0, pane.indexOf(":")) : null;
  const name = pane.slice(pane.indexOf(":") + 1);
  await skiff.ok(["keys", pane, "printf '\\a'; echo rang", "Enter"]);
  await skiff.waitForScreen(pane, /^rang$/m);
  await waitFor("the bell to make it unread", async () => {
    const { panes } = await skiff.json<{
      panes: { host: string | null; name: string; unread: boolean }[];
    }>(["ls", ...(host === null ? [] : ["--all-hosts"])]);
    return panes.some((p) => p.host === host && p.name === name && p.unread);
  });
  // Its prompt printed after the bell: a told change from now on is not output.
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/**
 * Marks `pane` seen (a state change that prints nothing) and checks that a
 * subscriber of `uri` is told, while the screen stays as it was.
 */
export async function seenIsTold(
  skiff: SkiffEnv,
  pane: string,
  uri: string,
  updates: string[],
): Promise<void> {
  const before = (await skiff.json<{ text: string }>(["capture", pane])).text;
  updates.length = 0;
  const seen = await skiff.json<{ was_unread: boolean }>(["seen", pane]);
  assertEquals(seen.was_unread, true);
  await waitFor(`an update for ${uri} after seen`, () => updates.includes(uri), {
    timeout: 10_000,
  });
  assertEquals((await skiff.json<{ text: string }>(["capture", pane])).text, before);
}
