/**
 * Listing and calling the tools within the gates: a closed gate's tool is
 * not listed, and a call to it anyway is a tool error that names the flag
 * that would open it. Input is checked against the tool's schema first (a
 * bad one is `usage`); a read-only call cut off by skiffd going away (a
 * reload) is made once more, on the connection made again.
 *
 * @module
 */

import { z } from "zod";
import { SkiffError } from "../errors.ts";
import { ConnectionClosed } from "../client/client.ts";
import { TaskNotSent } from "../ops/mod.ts";
import { allowFlag, type McpGate } from "./gates.ts";
import { toolError, type ToolResult, toolResult } from "./errors.ts";
import { SCHEMA_VERSION, type Tool, type ToolContext, TOOLS } from "./tools/mod.ts";

/** A tool as `tools/list` gives it. */
export interface ListedTool {
  /** Its name. */
  name: string;
  /** Its title. */
  title: string;
  /** What it does. */
  description: string;
  /** Its input's JSON Schema. */
  inputSchema: { type: "object"; [key: string]: unknown };
  /** Its output's JSON Schema. */
  outputSchema: { type: "object"; [key: string]: unknown };
  /** Hints for clients. */
  annotations: Record<string, unknown>;
}

/** Whether `tool` is offered with `gates` open. */
export function offered(tool: Tool, gates: ReadonlySet<McpGate>): boolean {
  return tool.gate === null || gates.has(tool.gate);
}

const listed = new Map<Tool, ListedTool>();

/** The tool in `tools/list`'s form (made once per tool). */
function listing(tool: Tool): ListedTool {
  let entry = listed.get(tool);
  if (entry) return entry;
  const output = tool.output.extend({ schema_version: SCHEMA_VERSION });
  entry = {
    name: tool.name,
    title: tool.title,
    description: tool.gate === null
      ? tool.description
      : `${tool.description} (Offered because the ${tool.gate} gate is open.)`,
    inputSchema: z.toJSONSchema(tool.input, { io: "input" }) as ListedTool["inputSchema"],
    outputSchema: z.toJSONSchema(output, { io: "output" }) as ListedTool["outputSchema"],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.name === "kill_pane",
      openWorldHint: false,
    },
  };
  listed.set(tool, entry);
  return entry;
}

/** The tools offered with `gates` open, in `tools/list`'s form. */
export function listTools(gates: ReadonlySet<McpGate>): ListedTool[] {
  return TOOLS.filter((tool) => offered(tool, gates)).map(listing);
}

/** The error of a call to a tool whose gate is closed. */
function closed(tool: string, gate: McpGate): SkiffError {
  return new SkiffError(
    `Tool ${tool} is not allowed: start skiff mcp with ${
      allowFlag(gate)
    } (or add "${gate}" to [mcp] allow in projects.toml)`,
    { exit: "USAGE", details: { tool, gate, allow: allowFlag(gate) } },
  );
}

/** Says what is wrong with a tool's input, in one line. */
function badInput(tool: string, error: z.ZodError): SkiffError {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? `'${issue.path.join(".")}'` : "the input";
  return new SkiffError(`Bad input for ${tool}: ${where}: ${issue.message}`, {
    exit: "USAGE",
    details: { tool, issues: error.issues.map((i) => ({ path: i.path, message: i.message })) },
  });
}

/** Calls tool `name` with `args`: its result, or a tool error; never throws. */
export async function callTool(
  name: string,
  args: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) {
    return toolError(
      new SkiffError(`No tool '${name}'. See 'skiff mcp --help'`, { exit: "NOT_FOUND" }),
    );
  }
  if (tool.gate !== null && !context.gates.has(tool.gate)) {
    return toolError(closed(name, tool.gate));
  }
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return toolError(badInput(name, parsed.error));
  const also = tool.alsoNeeds;
  if (also && also.needed(parsed.data) && !context.gates.has(also.gate)) {
    return toolError(closed(`${name} ${also.when}`, also.gate));
  }
  try {
    return toolResult(await runOnce(tool, parsed.data, context));
  } catch (error) {
    if (error instanceof TaskNotSent) return toolError(error, error.result);
    return toolError(error);
  }
}

async function runOnce(tool: Tool, input: unknown, context: ToolContext): Promise<object> {
  try {
    return await tool.run(input as never, context);
  } catch (error) {
    // skiffd dropped the connection (a reload): a read is made again once it is back.
    if (!tool.readOnly || !(error instanceof ConnectionClosed)) throw error;
    return await tool.run(input as never, context);
  }
}
