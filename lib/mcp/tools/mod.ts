/**
 * Every tool of `skiff mcp`, in the order they are listed: the server
 * registers from this table and `skiff mcp --help` prints it, so the two
 * cannot differ. A new tool is one module and one line here.
 *
 * @module
 */

import { CAPTURE_PANE, LIST_PANES, PANE_DIFF, WAIT_FOR_PANE } from "./read_panes.ts";
import { KILL_PANE, MARK_SEEN, NEW_PANE, SEND_TO_PANE } from "./change_panes.ts";
import { LEDGER_ADD, LEDGER_LIST, LEDGER_SHOW, LEDGER_UPDATE } from "./ledger.ts";
import { LAND_PANE } from "./land.ts";
import type { Tool } from "./tool.ts";

export { defineTool, ms, paneRef, type Tool, type ToolContext } from "./tool.ts";
export { SCHEMA_VERSION } from "./schemas.ts";

/** The tools, read-only ones first. */
export const TOOLS: readonly Tool[] = [
  LIST_PANES,
  CAPTURE_PANE,
  WAIT_FOR_PANE,
  PANE_DIFF,
  LEDGER_LIST,
  LEDGER_SHOW,
  SEND_TO_PANE,
  NEW_PANE,
  LAND_PANE,
  LEDGER_ADD,
  LEDGER_UPDATE,
  MARK_SEEN,
  KILL_PANE,
] as Tool[];
