/**
 * What a program tells about itself through its output rather than on the
 * screen: its window title, bells, an OSC 9;4 progress state and an agent's
 * own status report. A pane's screen keeps the latest of each, for views,
 * saves and the handlers that follow titles and bells.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import { type AgentStatusReport, parseStatusReport } from "./view.ts";

/** The latest reports of the program writing to one terminal. */
export class ProgramReports {
  /** The window title set by OSC 0 or 2. */
  title = "";
  /** How many bells rang. */
  bells = 0;
  /** The last OSC 9;4 progress state, if the program sent one. */
  progress: number | undefined;
  /** The last OSC 7501 status report of an agent, if one came. */
  status: AgentStatusReport | undefined;
  /** Told each new title; unset while a saved state is rebuilt. */
  onTitle: ((title: string) => void) | undefined;
  /** Told each bell. */
  onBell: (() => void) | undefined;

  /** Follows the reports of the program writing to `term`. */
  constructor(term: Terminal) {
    term.onTitleChange((title) => {
      this.title = title;
      this.onTitle?.(title);
    });
    term.onBell(() => {
      this.bells++;
      this.onBell?.();
    });
    const parser = term.parser;
    // OSC 9;4 progress (ConEmu, also used by agents): remember the state, let others pass.
    parser.registerOscHandler(9, (data) => {
      const match = /^4;(\d)/.exec(data);
      if (!match) return false;
      this.progress = Number(match[1]);
      return true;
    });
    // OSC 7501: an agent's own status report (Codex sends it).
    parser.registerOscHandler(7501, (data) => {
      this.status = parseStatusReport(data) ?? this.status;
      return true;
    });
  }

  /**
   * Runs `draw`, which rebuilds a saved state on the terminal, telling no
   * title meanwhile, then takes up the reports `saved` had.
   */
  rebuild(
    saved: { title: string; progress?: number; status?: AgentStatusReport },
    draw: () => void,
  ): void {
    const onTitle = this.onTitle;
    this.onTitle = undefined;
    try {
      draw();
    } finally {
      this.onTitle = onTitle;
    }
    this.title = saved.title;
    this.progress = saved.progress;
    this.status = saved.status ? { ...saved.status } : undefined;
  }
}
