/**
 * The watcher's health as people see it, on the Skiff agent's row of the
 * app (its icon) and of the dashboard (a word):
 *
 * | look           | word               | when                                                                 |
 * |----------------|--------------------|----------------------------------------------------------------------|
 * | red, still     | `not running`      | no watcher runs                                                      |
 * | red, still     | `failed`           | it runs, but its last line failed                                    |
 * | teal, turning  | `watching`         | the agent is idle and another pane the watcher follows works or waits |
 * | teal, still    | `nothing to watch` | otherwise: the watcher runs with nothing to watch                    |
 *
 * Pure, so the page, the dashboard and the tests share it.
 *
 * @module
 */

import type { ListedPane } from "../protocol/workspace.ts";
import type { WatcherHealth } from "../protocol/watch.ts";

/** The icon's three looks. */
export type IconState = "still" | "turning" | "alarm";

/** The icon's look, from the watcher's health, the Skiff agent's pane and every pane. */
export function agentIconState(
  watcher: WatcherHealth | null,
  agentPane: ListedPane | null,
  panes: readonly ListedPane[],
): IconState {
  if (!watcher || !watcher.running || !watcher.ok) return "alarm";
  if (!agentPane || agentPane.state !== "idle") return "still";
  const followed = new Set(watcher.watching);
  const busy = panes.some((pane) =>
    pane.session !== agentPane.session && followed.has(pane.id) &&
    (pane.state === "working" || pane.state === "waiting")
  );
  return busy ? "turning" : "still";
}

/** What the icon means, in words (its accessible name and tooltip). */
export function iconMeaning(state: IconState, watcher: WatcherHealth | null): string {
  if (state === "alarm") {
    if (!watcher || !watcher.running) return "The watcher is not running";
    return `The watcher's last line failed${watcher.last ? `: ${watcher.last}` : ""}`;
  }
  if (state === "turning") return "The watcher is watching sessions that work or wait";
  return "The watcher runs; nothing to watch";
}

/** The watcher's health in a word or two, for a row of text: see the table above. */
export function watcherWord(state: IconState, watcher: WatcherHealth | null): string {
  if (state === "alarm") return !watcher || !watcher.running ? "not running" : "failed";
  return state === "turning" ? "watching" : "nothing to watch";
}
