/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The terminal's colours in the light and the dark scheme: the page's own
 * paper and ink, and an ANSI palette that reads on each.
 *
 * @module
 */

import type { ITheme } from "@xterm/xterm";

const LIGHT: ITheme = {
  background: "#fbfaf7",
  foreground: "#1f2428",
  cursor: "#0f8f84",
  cursorAccent: "#fbfaf7",
  selectionBackground: "#bfe3df",
  black: "#1f2428",
  red: "#c0392b",
  green: "#2d7d32",
  yellow: "#9a6700",
  blue: "#1f5fbf",
  magenta: "#8e3fa8",
  cyan: "#0f7f86",
  white: "#6e7781",
  brightBlack: "#57606a",
  brightRed: "#d9473a",
  brightGreen: "#3a9a3f",
  brightYellow: "#b7850b",
  brightBlue: "#2f74d8",
  brightMagenta: "#a64fc2",
  brightCyan: "#139aa1",
  brightWhite: "#8c959f",
};

const DARK: ITheme = {
  background: "#11161b",
  foreground: "#d7dde3",
  cursor: "#3cc9bb",
  cursorAccent: "#11161b",
  selectionBackground: "#244a47",
  black: "#2b323a",
  red: "#ef6b5f",
  green: "#7cc47f",
  yellow: "#e3b94f",
  blue: "#6aa6f5",
  magenta: "#c98ae0",
  cyan: "#4fc9c6",
  white: "#c9d1d9",
  brightBlack: "#6e7781",
  brightRed: "#ff8a80",
  brightGreen: "#98dc9a",
  brightYellow: "#f2d06b",
  brightBlue: "#8cbcff",
  brightMagenta: "#dca8ef",
  brightCyan: "#76e0dc",
  brightWhite: "#f0f3f6",
};

/** The terminal theme for the dark scheme or the light one. */
export function terminalTheme(dark: boolean): ITheme {
  return dark ? DARK : LIGHT;
}
