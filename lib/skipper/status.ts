/**
 * What `skiff skipper status` (and `skiff skipper --json`) report: the Skiff
 * agent's session, pane, agent, state and folder, and the watcher's health.
 *
 * @module
 */

import { tryConnect } from "../client/connect.ts";
import { type Config, loadConfig } from "../config/config.ts";
import type { PaneInfo, PaneState } from "../protocol/panes.ts";
import type { WatcherHealth } from "../protocol/watch.ts";
import type { OpenOutcome } from "./open.ts";
import { findSkiffAgentSession } from "./session.ts";

/** The Skiff agent as a script or the app sees it. */
export interface SkiffAgentStatus {
  /** Whether the person turned it on. */
  enabled: boolean;
  /** Whether its session exists in a running skiffd. */
  running: boolean;
  /** Its session's id and name, or null. */
  session: { id: string; name: string } | null;
  /** Its pane, or null. */
  pane: PaneInfo | null;
  /** The agent it runs (from the settings). */
  agent: string;
  /** The state of its pane, or null. */
  state: PaneState | null;
  /** Its folder, or null when there is no home folder to put it in. */
  folder: string | null;
  /** The watcher's health, as skiffd knows it; null when skiffd does not run. */
  watcher: WatcherHealth | null;
}

/** The status right after an open. */
export function statusAfterOpen(config: Config, outcome: OpenOutcome): SkiffAgentStatus {
  return {
    enabled: config.skiffAgent.enabled,
    running: true,
    session: { id: outcome.session.session, name: outcome.session.name },
    pane: outcome.pane,
    agent: outcome.agent,
    state: outcome.pane.state,
    folder: outcome.folder,
    watcher: outcome.watcher,
  };
}

/** Reads the Skiff agent's status. Never starts skiffd or the session. */
export async function skiffAgentStatus(config: Config = loadConfig()): Promise<SkiffAgentStatus> {
  const status: SkiffAgentStatus = {
    enabled: config.skiffAgent.enabled,
    running: false,
    session: null,
    pane: null,
    agent: config.skiffAgent.agent,
    state: null,
    folder: config.skiffAgent.folder,
    watcher: null,
  };
  const client = await tryConnect();
  if (!client) return status;
  try {
    status.watcher = await client.call("watch.status");
    const found = await findSkiffAgentSession(client);
    if (!found) return status;
    return {
      ...status,
      running: true,
      session: found.session,
      pane: found.pane,
      state: found.pane.state,
    };
  } finally {
    client.close();
  }
}
