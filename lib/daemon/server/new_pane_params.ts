/**
 * Reads the params of a new pane (`pane.new`, and the pane `session.ensure`
 * makes) into a request for the workspace.
 *
 * @module
 */

import { isAbsolute } from "../../platform/path.ts";
import { SkiffError } from "../../errors.ts";
import { agentLaunchFor } from "../../agents/launch.ts";
import type { NewPaneRequest } from "../panes/mod.ts";
import {
  maybeInt,
  maybeString,
  maybeStringRecord,
  maybeStrings,
  needString,
  type Params,
} from "./params.ts";
import { CONVERSATION_ID } from "../../agents/records.ts";

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
    ...(resumeFlag(params) === false ? { noResume: true } : {}),
    ...agentParams(params),
  };
}

/** Reads the optional `resume` of `pane.new`: true or false. */
function resumeFlag(params: Params): boolean | undefined {
  const value = params.resume;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") {
    throw new SkiffError("Bad request: 'resume' must be true or false", { exit: "USAGE" });
  }
  return value;
}

/** Reads the optional `launched` of `pane.new`: `{agent, args?, conversation?, hooks?}`. */
function agentParams(params: Params): Pick<NewPaneRequest, "agent"> {
  const value = params.launched;
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new SkiffError("Bad request: 'launched' must be {agent, args?, conversation?}", {
      exit: "USAGE",
    });
  }
  const launched = value as Params;
  const conversation = maybeString(launched, "conversation");
  if (conversation !== undefined && !CONVERSATION_ID.test(conversation)) {
    throw new SkiffError("Bad request: 'launched.conversation' is not a conversation id", {
      exit: "USAGE",
    });
  }
  return {
    agent: {
      id: needString(launched, "agent"),
      args: maybeStrings(launched, "args") ?? [],
      ...(conversation ? { conversation } : {}),
      ...(launched.hooks === true ? { hooks: true } : {}),
    },
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
  const extra = request.command ?? [];
  const launch = agentLaunchFor(agent.id, {
    continue: agent.continue as boolean | undefined,
    chooseId: true,
    extra,
  });
  return {
    ...request,
    command: launch.command,
    env: { ...launch.env, ...request.env },
    // Followed for a resume after a restore, as a pane the client launched.
    agent: {
      id: agent.id,
      args: extra,
      ...(launch.conversation ? { conversation: launch.conversation } : {}),
      ...(launch.unwired === undefined ? { hooks: true } : {}),
    },
  };
}
