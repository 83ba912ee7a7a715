/**
 * Reads the params of a new pane (`pane.new`, and the pane `session.ensure`
 * makes) into a request for the workspace.
 *
 * @module
 */

import { isAbsolute } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import type { NewPaneRequest } from "./live_workspace.ts";
import { maybeInt, maybeString, maybeStringRecord, maybeStrings, type Params } from "./params.ts";

/** The largest pane size a client may ask for, in columns or rows. */
export const MAX_SIZE = 1000;

/** Reads an optional pane size. */
export function paneSize(params: Params): { cols?: number; rows?: number } {
  return {
    cols: maybeInt(params, "cols", 2, MAX_SIZE),
    rows: maybeInt(params, "rows", 2, MAX_SIZE),
  };
}

/** Reads and checks the params of a new pane. */
export function newPaneRequest(params: Params): NewPaneRequest {
  const cwd = maybeString(params, "cwd");
  if (cwd !== undefined && !isAbsolute(cwd)) {
    throw new SkiffError(`Bad request: 'cwd' must be an absolute path`, { exit: "USAGE" });
  }
  return {
    cwd,
    project: maybeString(params, "project"),
    name: maybeString(params, "name"),
    session: maybeString(params, "session"),
    env: maybeStringRecord(params, "env"),
    command: maybeStrings(params, "command"),
    clientEnv: maybeStringRecord(params, "client_env"),
    ...paneSize(params),
  };
}
