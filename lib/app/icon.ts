/**
 * The agent icon on the Skiff agent's row shows the watcher:
 *
 * | icon           | when                                                                 |
 * |----------------|----------------------------------------------------------------------|
 * | red, still     | no watcher runs, or its last line failed                             |
 * | teal, turning  | the agent is idle and another pane the watcher follows works or waits |
 * | teal, still    | otherwise: the watcher runs with nothing to watch                    |
 *
 * The page draws it; the turning stops under `prefers-reduced-motion` (CSS).
 * Pure, so the page and the tests share it.
 *
 * @module
 */

import type { PaneInfo } from "../protocol/panes.ts";
import type { WatcherHealth } from "../protocol/watch.ts";

/** The icon's three looks. */
export type IconState = "still" | "turning" | "alarm";

/** The icon's look, from the watcher's health, the Skiff agent's pane and every pane. */
export function agentIconState(
  watcher: WatcherHealth | null,
  agentPane: PaneInfo | null,
  panes: readonly PaneInfo[],
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
