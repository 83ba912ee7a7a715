/**
 * Which pane `skiff attach` with no pane means: the one a person used last.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { PaneInfo } from "../protocol/panes.ts";

/** The pane picked, and why. */
export interface RecentPane {
  /** The pane. */
  pane: PaneInfo;
  /** `used`: a person attached to it or typed into it last; `newest`: no running pane was used. */
  why: "used" | "newest";
}

function idNumber(pane: PaneInfo): number {
  return Number(pane.id.replace(/^\D+/, "")) || 0;
}

/** The error when there is no running pane to attach to; `exited` panes are there. */
export function noRunningPane(exited: number): SkiffError {
  return new SkiffError(
    exited === 0
      ? "No panes to attach to; 'skiff new' starts one"
      : `No running pane to attach to (${exited} exited; 'skiff ls' lists them); 'skiff new' starts one`,
    { exit: "NOT_FOUND" },
  );
}

/**
 * The running pane a person attached to or typed into last (`used`); when
 * no running pane was ever used, the newest running pane. Throws exit
 * `NOT_FOUND` when no pane runs.
 */
export function mostRecentPane(panes: PaneInfo[]): RecentPane {
  const running = panes.filter((pane) => pane.status === "running");
  if (running.length === 0) throw noRunningPane(panes.length);
  const used = running.filter((pane) => pane.used !== null);
  if (used.length > 0) {
    const pane = used.reduce((best, pane) =>
      Date.parse(pane.used!) > Date.parse(best.used!) ||
        pane.used === best.used && idNumber(pane) > idNumber(best)
        ? pane
        : best
    );
    return { pane, why: "used" };
  }
  const pane = running.reduce((best, pane) =>
    Date.parse(pane.created) > Date.parse(best.created) ||
      pane.created === best.created && idNumber(pane) > idNumber(best)
      ? pane
      : best
  );
  return { pane, why: "newest" };
}
