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

/**
 * Builds every deferred screen of `panes`, slice by slice, until done or
 * `stopping`; logs how long it took.
 */
export async function bringScreens(
  panes: () => Iterable<Pane>,
  options: { stopping: () => boolean; log: (line: string) => void },
): Promise<void> {
  const waiting = [...panes()].filter((pane) => pane.deferred);
  if (waiting.length === 0) return;
  const started = performance.now();
  let sliceStart = started;
  for (const pane of waiting) {
    if (options.stopping()) return;
    pane.bringScreen();
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  options.log(
    `restore: ${waiting.length} screens drawn in ${Math.round(performance.now() - started)} ms`,
  );
}
