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

/** How long {@linkcode endSkiffAgentSession} waits for the session's processes to go. */
export const END_TIMEOUT_MS = 5000;

/** Whether process `pid` still runs (not a zombie); `false` where `/proc` cannot tell. */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * Ends the Skiff agent's session, if it runs: every pane of it is killed,
 * and this waits (up to {@linkcode END_TIMEOUT_MS}) until their processes
 * are gone, so nothing works in the folder any more. Returns the panes' ids.
 */
export async function endSkiffAgentSession(client: DaemonClient): Promise<string[]> {
  const { sessions } = await client.call("session.list");
  const mine = new Set(sessions.filter((s) => isSkiffAgentSession(s.marks)).map((s) => s.id));
  if (mine.size === 0) return [];
  const { panes } = await client.call("pane.list");
  const ended: string[] = [];
  const pids: number[] = [];
  for (const pane of panes.filter((p) => mine.has(p.session))) {
    if (pane.pid) pids.push(pane.pid);
    if (pane.foreground) pids.push(pane.foreground.pid);
    await client.call("pane.kill", { pane: pane.id });
    ended.push(pane.id);
  }
  const deadline = Date.now() + END_TIMEOUT_MS;
  while (pids.some(running) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return ended;
}
