/**
 * Reads the params of a new pane (`pane.new`, and the pane `session.ensure`
 * makes) into a request for the workspace.
 *
 * @module
 */

import { isAbsolute } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { agentLaunchFor } from "../agents/launch.ts";
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

/**
 * Applies `pane.new`'s `agent`: the agent's command line and hook wiring,
 * made here by skiffd (its own `skiff hook`, its own config's agents), with
 * the request's command as the agent's extra arguments and the request's
 * env winning over the hook wiring. A pane made for another host's Skiff
 * this way calls back into the skiffd that owns it.
 */
export function withAgent(request: NewPaneRequest, params: Params): NewPaneRequest {
  const raw = params.agent;
  if (raw === undefined) return request;
  const agent = raw as { id?: unknown; continue?: unknown };
  if (
    typeof raw !== "object" || raw === null || typeof agent.id !== "string" || agent.id === "" ||
    (agent.continue !== undefined && typeof agent.continue !== "boolean")
  ) {
    throw new SkiffError("Bad request: 'agent' must be {id, continue?}", { exit: "USAGE" });
  }
  const launch = agentLaunchFor(agent.id, {
    continue: agent.continue as boolean | undefined,
    extra: request.command ?? [],
  });
  return { ...request, command: launch.command, env: { ...launch.env, ...request.env } };
}
