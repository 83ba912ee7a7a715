/**
 * Drawing the dashboard: where each part goes for a terminal's size, every
 * row of a frame as text with SGR codes, the painter that writes only the
 * rows that changed, when a frame is drawn, and the terminal's modes.
 *
 * @module
 */

export { renderFrame } from "./frame.ts";
export { FRAME_MS, FrameClock } from "./frame_clock.ts";
export { LEDGER_KEYS, LIST_KEYS } from "./keymap.ts";
export { type Layout, layout } from "./layout.ts";
export { previewPane } from "./list_box.ts";
export { Painter } from "./painter.ts";
export { followSignals, TerminalHold, terminalSize, writeTerminal } from "./terminal.ts";
