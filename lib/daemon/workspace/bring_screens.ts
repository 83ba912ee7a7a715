/**
 * After a restore, the screens of the panes that came back: each pane's
 * shell was started first, its screen left to build (see
 * `Pane.bringScreen`); here they are built in order, a slice of time at a
 * time, so that skiffd answers meanwhile. A pane that is used first (a
 * capture, an attach, a key) builds its own at once.
 *
 * @module
 */

import type { Pane } from "../panes/mod.ts";

/** How long one slice of building takes at most before skiffd serves what waits. */
const SLICE_MS = 20;

/** Builds every deferred screen of `panes`, slice by slice, until done or `stopping`. */
export async function bringScreens(
  panes: () => Iterable<Pane>,
  stopping: () => boolean,
): Promise<void> {
  const waiting = [...panes()].filter((pane) => pane.deferred);
  let sliceStart = performance.now();
  for (const pane of waiting) {
    if (stopping()) return;
    pane.bringScreen();
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
}
