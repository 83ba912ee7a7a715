/**
 * Each pane's saved screen and history on disk, written in the background
 * as a pane goes quiet, so that after a crash every pane comes back with
 * what it showed.
 *
 * @module
 */

export { ScreenSaver, type ScreenSaveStats } from "./screen_saver.ts";
export { type HistoryCount, ScreenStore } from "./screen_store.ts";
export { DEFLATE, ScreenSleeper, type ScreenSleepStats } from "./screen_sleeper.ts";
export { PaneScreens } from "./pane_screens.ts";
