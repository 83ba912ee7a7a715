/**
 * What a pane is made from, apart from the callbacks to its owner: the
 * program a new pane starts, the last screen and exit of one that had
 * exited before a restart, and the state of one a skiffd before this one
 * hands over in an upgrade.
 *
 * @module
 */

import type { Pty, PtyExit } from "../../platform/pty.ts";
import type {
  BytePacker,
  HistoryAsideText,
  LazyPrelude,
  SavedScreen,
  SleepSummary,
} from "../../screen/screen.ts";
import type { ScreenState } from "../../screen/screen_state.ts";
import type { OutputScheduler } from "./scheduler.ts";

/** What a new pane starts (see `Pane.start`). */
export interface PaneStartSpec {
  /** The program and arguments. */
  argv: string[];
  /** The full environment. */
  env: Record<string, string>;
  /** Scrollback lines. */
  scrollback: number;
  /** Who parses the output (default: the process's shared scheduler). */
  scheduler?: OutputScheduler;
  /**
   * Escape sequences written to the screen before the process prints
   * anything: the history of the process before it (see `historyAbove`),
   * or how to write it (only with {@linkcode PaneStartSpec.deferScreen}, else
   * at once).
   */
  prelude?: string | LazyPrelude;
  /**
   * Draw the prelude only when the screen is first used, and read no output
   * until then (it waits in the kernel): a restore of a thousand panes
   * brings each back at the cost of starting its shell, and builds their
   * screens after (see `Pane.bringScreen`).
   */
  deferScreen?: boolean;
}

/** Options for `Pane.exited`. */
export interface ExitedPaneOptions {
  /** Scrollback lines. */
  scrollback: number;
  /** How the process ended. */
  exit: PtyExit;
  /** When it ended (ms since the epoch). */
  exitedAt: number;
  /** Its last screen, if it was saved. */
  screen?: SavedScreen;
}

/** The state of a pane a skiffd before this one ran (see `Pane.adopt`). */
export interface AdoptedPaneState {
  /** The process's terminal, or none when it had exited. */
  pty?: Pty;
  /** The screen as saved. */
  screen: ScreenState;
  /**
   * The screen slept in the skiffd before: what it kept beside its state,
   * and how to pack that state, so it is adopted still asleep.
   */
  asleep?: { summary: SleepSummary; packer?: BytePacker; packedVt?: Uint8Array };
  /**
   * Older history lines handed over apart from {@linkcode screen}, built
   * under it when first read (see `lib/screen/history_aside.ts`).
   */
  historyAside?: HistoryAsideText;
  /** How the process ended, when it had. */
  exit?: PtyExit;
  /** When it ended (ms since the epoch). */
  exitedAt?: number;
  /**
   * Output the skiffd before had read and not parsed yet: parsed first, in
   * the pane's turns, before anything read from `pty`.
   */
  waiting?: Uint8Array;
  /** What the pane counted. */
  counts: {
    stateSince: number;
    personTypedAt: number;
    personInputs: number;
    outputBytes?: number;
    outputAt?: number;
  };
  /** Scrollback lines. */
  scrollback: number;
  /** Who parses the output (default: the process's shared scheduler). */
  scheduler?: OutputScheduler;
}
