/**
 * Reading a pane's screen, as `skiff capture` and the `capture_pane` tool do.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { withPane } from "../hosts/resolve.ts";
import type { CaptureResult } from "../protocol/panes.ts";
import { checkScope, type PaneOpOptions } from "./scope.ts";

/** Options for {@linkcode capturePane}. */
export interface CapturePaneOptions extends PaneOpOptions {
  /** Keep colours and styles as escape codes. */
  ansi?: boolean;
  /** Include this many lines of history (a whole number, 0 or more). */
  scrollback?: number;
}

/**
 * Reads pane `ref`'s screen (`PANE` or `HOST:PANE`) and returns what
 * `skiff capture --json` prints. A bad `scrollback` is `USAGE`; an unknown
 * pane `NOT_FOUND`.
 */
export async function capturePane(
  ref: string,
  options: CapturePaneOptions = {},
): Promise<CaptureResult> {
  const lines = options.scrollback;
  if (lines !== undefined && (!Number.isInteger(lines) || lines < 0)) {
    throw new SkiffError("Option '--scrollback' needs a whole number of lines, 0 or more", {
      exit: "USAGE",
    });
  }
  return await withPane(ref, async (client, pane) => {
    await checkScope(client, pane, options.project);
    return await client.call("pane.capture", { pane, ansi: options.ansi, scrollback: lines });
  }, { access: options.access });
}
