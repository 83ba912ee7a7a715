/**
 * Parts of a pane beside its process: the screen a starting pane gets (or
 * an exited one brought back), and the person's keys held back while a
 * guarded send types.
 *
 * @module
 */

import { Screen, type ScreenOptions } from "../../screen/screen.ts";
import type { SavedPane } from "../records/mod.ts";
import type { ExitedPaneOptions, PaneStartSpec } from "./pane_options.ts";

const encoder = new TextEncoder();

/**
 * The screen a starting pane gets: blank, or with its prelude drawn and
 * marked as left by an earlier process; with `deferScreen`, one that draws
 * its prelude when first used (`Screen.unborn`).
 */
export function startingScreen(
  saved: SavedPane,
  spec: Pick<PaneStartSpec, "prelude" | "deferScreen">,
  options: ScreenOptions,
): Screen {
  if (spec.deferScreen && spec.prelude !== undefined) {
    return Screen.unborn(saved.cols, saved.rows, spec.prelude, options);
  }
  const screen = new Screen(saved.cols, saved.rows, options);
  const prelude = typeof spec.prelude === "object" ? spec.prelude.text() : spec.prelude;
  if (prelude) {
    screen.writeSync(encoder.encode(prelude));
    screen.markOldAbove();
  }
  return screen;
}

/** The last screen of a pane whose process had exited before skiffd restarted, at its size now. */
export function exitedScreen(saved: SavedPane, options: ExitedPaneOptions): Screen {
  const size = options.screen ?? saved;
  const screen = new Screen(size.cols, size.rows, {
    scrollback: options.scrollback,
    respond: () => {},
  });
  if (options.screen) screen.restore(options.screen);
  // A screen saved before the pane's last resize takes the pane's size now.
  if (screen.cols !== saved.cols || screen.rows !== saved.rows) {
    screen.resize(saved.cols, saved.rows);
  }
  return screen;
}

/** A person's keys, held back in order while a guarded send types, then sent. */
export class InputHold {
  #held: Uint8Array[] | undefined;

  /** Whether keys are held now. */
  get active(): boolean {
    return this.#held !== undefined;
  }

  /** Holds keys from now on; the returned function sends them with `write` and holds no more. */
  start(write: (data: Uint8Array) => void): () => void {
    if (this.#held) throw new Error("input is already held");
    this.#held = [];
    return () => {
      const queued = this.#held ?? [];
      this.#held = undefined;
      for (const data of queued) write(data);
    };
  }

  /** Keeps `data` when keys are held (true), else leaves it to be sent now (false). */
  keep(data: Uint8Array): boolean {
    if (!this.#held) return false;
    this.#held.push(data.slice());
    return true;
  }
}
