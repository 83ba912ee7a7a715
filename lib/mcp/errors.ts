/**
 * A failed call as MCP's tool error (`isError`): the same JSON error the
 * CLI prints with `--json` (its reason, exit code and code name, such as
 * `working`, `typing`, `not_found`), never a crash of the server.
 *
 * @module
 */

import { errorJson } from "../errors.ts";
import { SCHEMA_VERSION } from "../version.ts";

/** A tool's result in MCP's form. */
export interface ToolResult {
  /** Index signature the SDK's result type asks for. */
  [key: string]: unknown;
  /** What a model reads. */
  content: { type: "text"; text: string }[];
  /** The command's JSON, on success. */
  structuredContent?: Record<string, unknown>;
  /** Whether the call failed. */
  isError?: boolean;
}

/**
 * The tool error for `error`. `result`, when the call still has one (a
 * ledger task added, then refused by its send), comes as a second part.
 */
export function toolError(error: unknown, result?: object): ToolResult {
  const content = [{ type: "text" as const, text: JSON.stringify(errorJson(error)) }];
  if (result) {
    content.push({
      type: "text",
      text: JSON.stringify({ schema_version: SCHEMA_VERSION, ...result }),
    });
  }
  return { content, isError: true };
}

/** The tool result for `result`: the command's JSON, as structured content and as text. */
export function toolResult(result: object): ToolResult {
  const json = { schema_version: SCHEMA_VERSION, ...result };
  return { content: [{ type: "text", text: JSON.stringify(json) }], structuredContent: json };
}
