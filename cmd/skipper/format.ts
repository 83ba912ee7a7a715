/**
 * The text form of `skiff skipper status`. (`--move-to` says what it did
 * with `moveLines` from lib/skipper, which the app shows too.)
 *
 * @module
 */

import type { SkiffAgentStatus } from "../../lib/skipper/mod.ts";

function watcherLine(health: SkiffAgentStatus["watcher"]): string {
  if (!health) return "- (skiffd is not running)";
  if (!health.running) return "not running";
  const state = health.ok ? "ok" : "its last line failed";
  const last = health.last ? `; last: ${health.last}` : "";
  return `running (pid ${health.pid}), ${state}, following ${health.watching.length} pane(s)${last}`;
}

/** Lines for `skiff skipper status`. */
export function statusLines(status: SkiffAgentStatus): string[] {
  const rows: [string, string][] = [
    ["enabled", String(status.enabled)],
    ["session", status.session ? `${status.session.name} (${status.session.id})` : "not running"],
    ["pane", status.pane ? `${status.pane.name} (${status.pane.id})` : "-"],
    ["agent", status.agent],
    ["state", status.state ?? "-"],
    ["folder", status.folder ?? "- (HOME is not set)"],
    ["watcher", watcherLine(status.watcher)],
  ];
  return rows.map(([key, value]) => `${key.padEnd(8)} ${value}`);
}
