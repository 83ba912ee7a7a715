/**
 * Finding the Skiff agent's session in a running skiffd, by its mark.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { SKIFF_AGENT_MARK, SKIFF_AGENT_MARK_VALUE } from "./marks.ts";

/** The Skiff agent's session and its pane. */
export interface SkiffAgentSession {
  /** The session's id and name. */
  session: { id: string; name: string };
  /** Its panes. */
  panes: PaneInfo[];
  /** Its pane: the first running one, else the first one. */
  pane: PaneInfo;
}

/** The mark filter that lists the Skiff agent's panes. */
const MARK = { key: SKIFF_AGENT_MARK, value: SKIFF_AGENT_MARK_VALUE };

/** Whether a session's marks make it the Skiff agent's. */
export function isSkiffAgentSession(marks: Record<string, string>): boolean {
  return marks[SKIFF_AGENT_MARK] === SKIFF_AGENT_MARK_VALUE;
}

/** Finds the Skiff agent's session, or `undefined` when skiffd has none. */
export async function findSkiffAgentSession(
  client: DaemonClient,
): Promise<SkiffAgentSession | undefined> {
  const { panes } = await client.call("pane.list", { mark: MARK });
  const pane = panes.find((p) => p.status === "running") ?? panes[0];
  if (!pane) return undefined;
  const mine = panes.filter((p) => p.session === pane.session);
  return { session: { id: pane.session, name: pane.session_name }, panes: mine, pane };
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
  const { panes } = await client.call("pane.list", { mark: MARK });
  const ended: string[] = [];
  const pids: number[] = [];
  for (const pane of panes) {
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
