/**
 * Finding the Skiff agent's session in a running skiffd, by its mark.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { SessionInfo } from "../protocol/sessions.ts";
import { SKIFF_AGENT_MARK, SKIFF_AGENT_MARK_VALUE } from "./marks.ts";

/** The Skiff agent's session and its pane. */
export interface SkiffAgentSession {
  /** The session. */
  session: SessionInfo;
  /** Its pane: the first running one, else the first one. */
  pane: PaneInfo;
}

/** Whether a session's marks make it the Skiff agent's. */
export function isSkiffAgentSession(marks: Record<string, string>): boolean {
  return marks[SKIFF_AGENT_MARK] === SKIFF_AGENT_MARK_VALUE;
}

/** Finds the Skiff agent's session, or `undefined` when skiffd has none. */
export async function findSkiffAgentSession(
  client: DaemonClient,
): Promise<SkiffAgentSession | undefined> {
  const { sessions } = await client.call("session.list");
  const session = sessions.find((s) => isSkiffAgentSession(s.marks));
  if (!session) return undefined;
  const { panes } = await client.call("pane.list");
  const mine = panes.filter((p) => p.session === session.id);
  const pane = mine.find((p) => p.status === "running") ?? mine[0];
  return pane ? { session, pane } : undefined;
}

/** Ends the Skiff agent's session, if it runs: every pane of it is killed. Returns their ids. */
export async function endSkiffAgentSession(client: DaemonClient): Promise<string[]> {
  const { sessions } = await client.call("session.list");
  const ended: string[] = [];
  for (const session of sessions.filter((s) => isSkiffAgentSession(s.marks))) {
    for (const pane of session.panes) {
      await client.call("pane.kill", { pane });
      ended.push(pane);
    }
  }
  return ended;
}
