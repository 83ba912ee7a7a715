/**
 * A screen asleep, as `LiveScreen` leaves it and wakes from it: the packed
 * escape sequences of its state, beside what listings and agent rules read
 * while it sleeps.
 *
 * @module
 */

import type { ScreenView } from "./view.ts";
import type { TapPosition } from "./history_tap.ts";
import type { ScreenState } from "./screen_state.ts";

const decoder = new TextDecoder();

/**
 * A way to keep bytes smaller while a screen sleeps (skiffd compresses
 * them); both directions run synchronously, as a screen wakes on the spot.
 */
export interface BytePacker {
  /** Makes `bytes` smaller. */
  pack(bytes: Uint8Array): Uint8Array;
  /** Gives back what {@linkcode BytePacker.pack} was given. */
  unpack(packed: Uint8Array): Uint8Array;
}

/**
 * A screen asleep: all it takes to wake it as it was, and what is read of
 * it often (by agent rules and listings) while it sleeps. A few KB where
 * xterm holds hundreds: the escape sequences of its whole state, as UTF-8,
 * packed.
 */
export interface AsleepScreen {
  /** The saved state, without its escape sequences. */
  state: Omit<ScreenState, "vt">;
  /** The state's escape sequences, as UTF-8, packed by {@linkcode AsleepScreen.packer}. */
  vt: Uint8Array;
  /** What packed {@linkcode AsleepScreen.vt}; none when it is plain UTF-8. */
  packer?: BytePacker;
  /** The view agent rules read, as it was when it fell asleep. */
  view: ScreenView;
  /** Bells rung since the screen was made. */
  bells: number;
  /** Whether the program enabled bracketed paste. */
  bracketedPaste: boolean;
  /** Whether the program enabled application cursor keys. */
  applicationCursorKeys: boolean;
  /** Whether the alternate screen showed. */
  alternate: boolean;
  /** Where its history's next take starts, once a take was made. */
  tap: TapPosition | undefined;
  /** The last row an earlier process left, counted from the top of the history. */
  oldUntil: number | undefined;
  /**
   * Set on a screen made to be built later (`Screen.unborn`): once its
   * state is drawn, everything above the cursor is marked as left by an
   * earlier process.
   */
  markOld?: boolean;
}

/** What a sleeping screen keeps beside its state: enough to hand it over still asleep. */
export type SleepSummary = Omit<AsleepScreen, "state" | "vt" | "packer">;

/** The escape sequences of a sleeping screen's state. */
export function asleepVt(asleep: AsleepScreen): string {
  return decoder.decode(asleep.packer ? asleep.packer.unpack(asleep.vt) : asleep.vt);
}

/** `view` with each row's strong text the same string as its text where they are equal. */
export function compactView(view: ScreenView): ScreenView {
  for (const row of view.rows) if (row.strong === row.text) row.strong = row.text;
  return view;
}
