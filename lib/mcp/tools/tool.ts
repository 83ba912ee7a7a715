/**
 * What a tool of `skiff mcp` is: its name (clients show it as
 * `mcp__skiff__NAME`), the gate that must be open to offer it (none for a
 * tool that only reads), its input and output schemas, and what it does: one
 * call of an operation of `lib/ops`, whose result is the tool's structured
 * content, as the matching command's `--json` prints it.
 *
 * @module
 */

import type { z } from "zod";
import type { Ledger } from "../../ledger/mod.ts";
import type { OpenAgentLedgerOptions } from "../../skipper/ledger.ts";
import type { SkiffdAccess } from "../../hosts/resolve.ts";
import type { McpGate } from "../../config/mod.ts";

/** What a tool's call may use. */
export interface ToolContext {
  /** The server's kept connections. */
  access: SkiffdAccess;
  /** The project every tool is limited to (`--project`), if any. */
  project?: string;
  /** The host a pane ref without `HOST:` is on (`--host`), if any. */
  host?: string;
  /** The gates that are open. */
  gates: ReadonlySet<McpGate>;
  /** Opens the Skiff agent's ledger (closed by the caller, with `using`). */
  ledger(options?: OpenAgentLedgerOptions): Ledger;
}

/** One tool. */
export interface Tool<I extends z.ZodObject = z.ZodObject> {
  /** The tool's name. */
  name: string;
  /** The gate that must be open for it to be offered, or null: always offered (it only reads). */
  gate: McpGate | null;
  /** A short title. */
  title: string;
  /** What it does, for the model that calls it. */
  description: string;
  /** Its input. */
  input: I;
  /** Its output (the structured content), without `schema_version`. */
  output: z.ZodObject;
  /** It changes nothing: a call cut off by a reload of skiffd is made once more. */
  readOnly: boolean;
  /**
   * A gate some calls need besides the tool's own (`ledger_add` with `send`
   * also needs `send`): the gate, the words for when (`with send`), and
   * which inputs need it.
   */
  alsoNeeds?: { gate: McpGate; when: string; needed: (input: z.infer<I>) => boolean };
  /** Runs the call; the result is what the matching command's `--json` prints. */
  run(input: z.infer<I>, context: ToolContext): Promise<object>;
}

/** Makes a tool, typed by its input schema. */
export function defineTool<I extends z.ZodObject>(tool: Tool<I>): Tool<I> {
  return tool;
}

/** A pane ref as the tools take it: `HOST:PANE`, or a bare one on `--host`'s host when given. */
export function paneRef(ref: string, context: ToolContext): string {
  return context.host === undefined || ref.includes(":") ? ref : `${context.host}:${ref}`;
}

/** Seconds from a tool's input as milliseconds (the schema keeps them in 0–86400). */
export function ms(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}
