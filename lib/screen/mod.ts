/**
 * Screens: the terminal model of each pane, query answers and filtering, and
 * key encoding.
 *
 * @module
 */

export * from "./screen.ts";
export * from "./query_filter.ts";
export * from "./keys.ts";
export { paletteColor } from "./palette.ts";
export * from "./view.ts";
export * from "./screen_state.ts";
