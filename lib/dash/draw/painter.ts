/**
 * Writes frames to the terminal: only the rows that differ from the last
 * frame, in one write, inside a synchronized update (terminals that know
 * mode 2026 show it whole; others ignore it).
 *
 * @module
 */

/** Paints frames with as little output as it can. */
export class Painter {
  #last: string[] = [];
  readonly #write: (text: string) => void;

  /** A painter that writes through `write`. */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** Forgets what the terminal shows: the next frame is written whole. */
  invalidate(): void {
    this.#last = [];
  }

  /** Writes the rows of `frame` that changed; returns how many did. */
  paint(frame: readonly string[]): number {
    let out = "";
    let changed = 0;
    for (let y = 0; y < frame.length; y++) {
      if (this.#last[y] === frame[y]) continue;
      out += `\x1b[${y + 1};1H${frame[y]}`;
      changed++;
    }
    this.#last = [...frame];
    if (changed > 0) this.#write(`\x1b[?2026h${out}\x1b[?2026l`);
    return changed;
  }
}
