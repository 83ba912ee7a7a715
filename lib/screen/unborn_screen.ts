/**
 * Screens to be built later: a restored pane's old history and marker are
 * drawn when its screen is first used, and until then it sleeps with a
 * blank view (see `Screen.unborn`).
 *
 * @module
 */

import type { AsleepScreen, BytePacker } from "./asleep_screen.ts";
import { SCREEN_STATE_VERSION } from "./screen_state.ts";

const encoder = new TextEncoder();

/** How many line feeds `text` holds. */
export function newlineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/**
 * A prelude for {@linkcode Screen.unborn} that is written only when the
 * screen is first used: a restore of a thousand panes starts their shells
 * without drawing a thousand old screens first.
 */
export interface LazyPrelude {
  /** At least as many lines as the text will have. */
  lines: number;
  /** The escape sequences (called each time they are needed). */
  text(): string;
}

/**
 * What a screen that is not built yet sleeps as: a blank view, and
 * `prelude` as its state's escape sequences (see `Screen.unborn`).
 */
export function unbornAsleep(
  cols: number,
  rows: number,
  prelude: string | LazyPrelude,
): AsleepScreen {
  const blank = { text: "", strong: "" };
  let lines = 0;
  let vt: Uint8Array;
  let packer: BytePacker | undefined;
  if (typeof prelude === "string") {
    // Room for every line it may draw: a rebuild grows the history by the state's count.
    lines = newlineCount(prelude);
    vt = encoder.encode(prelude);
  } else {
    lines = prelude.lines;
    vt = new Uint8Array(0);
    // Read as a packed state is, so that waking it, saving it or handing it over writes it then.
    packer = { pack: (bytes) => bytes, unpack: () => encoder.encode(prelude.text()) };
  }
  return {
    state: { version: SCREEN_STATE_VERSION, cols, rows, history: lines, title: "" },
    vt,
    packer,
    view: {
      rows: Array.from({ length: rows }, () => blank),
      title: "",
      bracketedPaste: false,
      cursorY: 0,
    },
    bells: 0,
    bracketedPaste: false,
    applicationCursorKeys: false,
    alternate: false,
    tap: undefined,
    oldUntil: undefined,
    markOld: true,
  };
}
