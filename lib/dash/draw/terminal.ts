/**
 * Taking the terminal for the dashboard and giving it back: the alternate
 * screen, a hidden cursor, no line wrap, bracketed paste and raw input; and
 * on the way out every mode reset, whatever a program attached meanwhile
 * may have left (mouse, keypad, kitty keys), the cursor shown and the main
 * screen back.
 *
 * @module
 */

import { writeAllSync } from "../../platform/bytes.ts";

/** Enters the dashboard's screen. */
export const TAKE = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[?2004h\x1b[2J";

/** Undoes every mode the dashboard or an attached program may have set, and leaves the alternate screen. */
export const GIVE_BACK =
  "\x1b[?2026l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>" +
  "\x1b[<u\x1b[?7h\x1b[0m\x1b[?25h\x1b[?1049l";

const encoder = new TextEncoder();

/** Writes `text` to the terminal; a terminal that went away (a dropped SSH link) is ignored. */
export function writeTerminal(text: string): void {
  try {
    writeAllSync(Deno.stdout, encoder.encode(text));
  } catch {
    // The terminal is gone: nothing to draw on.
  }
}

/** The terminal's size, or 80×24 when it does not say. */
export function terminalSize(): { cols: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    if (columns >= 2 && rows >= 2) return { cols: columns, rows };
  } catch {
    // Not a terminal.
  }
  return { cols: 80, rows: 24 };
}

/** The terminal as the dashboard holds it. */
export class TerminalHold {
  #held = false;

  /** Takes the terminal: raw input and the dashboard's screen. */
  take(): void {
    Deno.stdin.setRaw(true, { cbreak: false });
    writeTerminal(TAKE);
    this.#held = true;
  }

  /** Gives the terminal back as it was; safe to call more than once. */
  giveBack(): void {
    if (!this.#held) return;
    this.#held = false;
    writeTerminal(GIVE_BACK);
    try {
      Deno.stdin.setRaw(false);
    } catch {
      // The terminal is gone.
    }
  }

  /** Whether the dashboard holds the terminal. */
  get held(): boolean {
    return this.#held;
  }
}

/** The signals that end the dashboard. */
const END_SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

/** One of the signals that end the dashboard. */
export type EndSignal = typeof END_SIGNALS[number];

/**
 * Follows the signals a terminal program gets: a resize, and the ones that
 * end it (SIGTERM, SIGHUP, SIGINT). Returns what stops following them.
 */
export function followSignals(
  handlers: { resized: () => void; ended: (signal: EndSignal) => void },
): () => void {
  const onResize = () => handlers.resized();
  const listeners = END_SIGNALS.map((signal) => [signal, () => handlers.ended(signal)] as const);
  Deno.addSignalListener("SIGWINCH", onResize);
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  return () => {
    Deno.removeSignalListener("SIGWINCH", onResize);
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
