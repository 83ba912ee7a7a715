/**
 * The terminal dashboard (`skiff dash`, and `skiff` alone in a terminal):
 * the Skiff agent's row, the projects with their sessions and panes, a
 * live preview of the selected pane, the ledger, and keys to open, send,
 * make, rename, kill and mark panes. A client of skiffd like the app: the
 * typed protocol and its numbered events, nothing polled.
 *
 * It draws with its own renderer: measured against ink, pi-tui,
 * terminal-kit and @opentui/core, it starts, redraws and stays smaller
 * than any of them (docs/dashboard.md has the numbers and the reasons).
 *
 * @module
 */

export { type DashOptions, runDashboard } from "./run.ts";
export type { DashOutcome } from "./dashboard.ts";
export { FRAME_MS } from "./draw/mod.ts";
export { type Layout, layout } from "./draw/mod.ts";
export { LEDGER_KEYS, LIST_KEYS } from "./draw/mod.ts";
