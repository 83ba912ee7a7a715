/**
 * History held aside: the older lines of a screen's history kept as the
 * escape sequences they were saved in, above a screen whose emulator holds
 * only the newer ones.
 *
 * Why. Rebuilding a screen of 10,000 lines of history allocates 10,000 of
 * the emulator's line objects: 100–150 ms a screen in a new skiffd, which a
 * busy pane's output waits for during `skiff daemon upgrade`. A busy pane is
 * handed over with its history in two parts (see `splitScreenState` in
 * `screen_state.ts`), its emulator is rebuilt from the newer part only, and
 * its output runs on at once. The whole history is built the first time
 * anything reads past the visible screen (a capture of its history, a save,
 * a resize, its sleep): `Screen` merges the part held aside under the
 * emulator's state then, so nobody reads a screen with lines missing.
 *
 * Merging writes the emulator's state on a new one, which needs its parser
 * at rest: output that stopped in the middle of an escape sequence is
 * tracked here, from the last point the parser was at rest, so that the
 * unfinished sequence can be written again on the merged screen.
 *
 * @module
 */

import { joinBytes } from "../platform/bytes.ts";

/** The older part of a history, as `splitScreenState` writes it. */
export interface HistoryAsideText {
  /**
   * The lines as escape sequences for a blank terminal, from a reset pen,
   * each logical line ending in `\r\n`.
   */
  vt: string;
  /** How many lines (rows of the emulator's buffer) they are. */
  lines: number;
}

/** The most output kept to find an unfinished sequence in; past it, the sequence is dropped. */
const MAX_UNFINISHED_BYTES = 1 << 20;

/** The older lines of one screen's history, and what its parser may be in the middle of. */
export class HistoryAside {
  readonly vt: string;
  readonly lines: number;
  /** What was parsed since the parser was last at rest at the end of a write. */
  #sinceRest: Uint8Array[] = [];
  #bytes = 0;
  /** The emulator's count of history resets when the lines were set aside. */
  readonly resets: number;

  /** Holds `text` above a screen whose emulator had reset its history `resets` times. */
  constructor(text: HistoryAsideText, resets: number) {
    this.vt = text.vt;
    this.lines = text.lines;
    this.resets = resets;
  }

  /** Follows the output: `data` was parsed, and the parser was `atRest` after it. */
  parsed(data: Uint8Array, atRest: boolean): void {
    if (atRest) {
      this.#sinceRest = [];
      this.#bytes = 0;
      return;
    }
    this.#bytes += data.length;
    if (this.#bytes > MAX_UNFINISHED_BYTES) {
      // A sequence this long is not one a screen can hold anyway (an image, say).
      this.#sinceRest = [];
      this.#bytes = 0;
      return;
    }
    // Copied: the caller's buffer may be reused for the next read.
    this.#sinceRest.push(data.slice());
  }

  /** The bytes of the escape sequence or character the parser is in the middle of; empty when none. */
  unfinished(): Uint8Array {
    const all = joinBytes(this.#sinceRest);
    return all.subarray(unfinishedStart(all));
  }
}

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

/** Where a scan of output stands. */
const Scan = {
  Ground: 0,
  Escape: 1,
  EscapeIntermediate: 2,
  Csi: 3,
  Osc: 4,
  OtherString: 5,
  StringEscape: 6,
  Utf8: 7,
} as const;

/**
 * Where the escape sequence or UTF-8 character that `bytes` ends in the
 * middle of starts, reading from the ground state; `bytes.length` when it
 * ends between them. C1 controls sent as UTF-8 are read as text: programs
 * send the 7-bit forms.
 */
export function unfinishedStart(bytes: Uint8Array): number {
  let scan: number = Scan.Ground;
  let start = bytes.length;
  let need = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === ESC && scan !== Scan.StringEscape) {
      // An escape starts a new sequence anywhere, and ends a string (with `\`).
      if (scan === Scan.Osc || scan === Scan.OtherString) {
        scan = Scan.StringEscape;
      } else {
        scan = Scan.Escape;
        start = i;
      }
      continue;
    }
    if ((b === CAN || b === SUB) && scan !== Scan.Ground && scan !== Scan.Utf8) {
      scan = Scan.Ground;
      continue;
    }
    switch (scan) {
      case Scan.Ground:
        if (b >= 0xc0 && b < 0xf8) {
          need = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
          scan = Scan.Utf8;
          start = i;
        }
        break;
      case Scan.Utf8:
        if ((b & 0xc0) === 0x80) {
          if (--need === 0) scan = Scan.Ground;
        } else {
          // Not a continuation: the character was cut off; read this byte afresh.
          scan = Scan.Ground;
          i--;
        }
        break;
      case Scan.Escape:
        if (b === 0x5b) scan = Scan.Csi;
        else if (b === 0x5d) scan = Scan.Osc;
        else if (b === 0x50 || b === 0x58 || b === 0x5e || b === 0x5f) scan = Scan.OtherString;
        else if (b >= 0x20 && b <= 0x2f) scan = Scan.EscapeIntermediate;
        else scan = Scan.Ground;
        break;
      case Scan.EscapeIntermediate:
        if (b < 0x20 || b > 0x2f) scan = Scan.Ground;
        break;
      case Scan.Csi:
        if (b >= 0x40 && b <= 0x7e) scan = Scan.Ground;
        break;
      case Scan.Osc:
        if (b === BEL) scan = Scan.Ground;
        break;
      case Scan.OtherString:
        break;
      case Scan.StringEscape:
        if (b === 0x5c) {
          scan = Scan.Ground;
        } else {
          // Not a string terminator: that escape starts a sequence of its own.
          scan = Scan.Escape;
          start = i - 1;
          i--;
        }
        break;
    }
  }
  return scan === Scan.Ground ? bytes.length : start;
}
