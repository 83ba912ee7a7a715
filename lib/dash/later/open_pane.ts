/**
 * Opening a pane full screen from the dashboard: the terminal goes to a real
 * attach (through its link for a pane of another host) until the detach key,
 * and the status row then says how the attach ended.
 *
 * @module
 */

import type { DashState } from "../model/mod.ts";
import { attachPane } from "../../hosts/attach.ts";

/**
 * Attaches this terminal to `pane` on the alternate screen the dashboard
 * holds, and returns the status row's line for how it ended (none for a
 * detach).
 */
export async function attachFromDash(
  pane: string,
  options: { socket: string },
): Promise<DashState["status"]> {
  try {
    // The dashboard holds the alternate screen already: the pane is drawn on it. A pane of
    // another host (HOST:ID) is attached through its link. (This module loads with the
    // dashboard's later parts, `later/mod.ts`, so the attach's code is not in the first frame's way.)
    const outcome = await attachPane(pane, { alternateScreen: false, socket: options.socket });
    const label = `${outcome.name} (${outcome.pane})`;
    const lines: Record<string, string> = {
      exited: `${label} exited`,
      killed: `${label} was killed`,
      gone: `${label} is gone`,
      lost: outcome.host === null ? "Lost skiffd while attached" : outcome.line,
    };
    return lines[outcome.reason] ? { text: lines[outcome.reason], tone: "info" } : null;
  } catch (error) {
    return { text: (error as Error).message, tone: "error" };
  }
}
