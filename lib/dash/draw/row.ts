/**
 * The pieces every box of a frame is drawn with: the styles by meaning, and
 * a row builder that never draws wider than its row.
 *
 * @module
 */

import { clip, fit, textWidth } from "./text.ts";

/** SGR parameters by meaning. */
export const STYLE = {
  bold: "1",
  dim: "2",
  inverse: "7",
  header: "7",
  selected: "7",
  error: "1;31",
  unread: "1;33",
  project: "1",
  agentRow: "1;36",
  added: "32",
  removed: "31",
  landed: "1;32",
} as const;

/** The colour of each pane state. */
export const STATE_STYLE: Record<string, string> = {
  working: "36",
  waiting: "1;33",
  idle: "32",
  starting: "34",
  shell: "2",
  exited: "31",
};

/** Builds one row of cells from styled pieces, never wider than its width. */
export class Row {
  #out = "";
  #used = 0;
  readonly #width: number;
  readonly #base: string;

  /** A row `width` cells wide, drawn in the SGR style `base`. */
  constructor(width: number, base = "") {
    this.#width = width;
    this.#base = base;
    if (base !== "") this.#out = `\x1b[0;${base}m`;
  }

  /** Cells left. */
  get left(): number {
    return this.#width - this.#used;
  }

  /** Adds `text` (cut to what is left) in `style`. */
  add(text: string, style = ""): this {
    const cut = clip(text, this.left);
    if (cut === "") return this;
    const sgr = [this.#base, style].filter(Boolean).join(";");
    this.#out += style === ""
      ? cut
      : `\x1b[0;${sgr}m${cut}\x1b[0${this.#base ? `;${this.#base}` : ""}m`;
    this.#used += textWidth(cut);
    return this;
  }

  /** Adds `text` padded to `width` cells. */
  cell(text: string, width: number, style = ""): this {
    return this.add(fit(text, Math.min(width, this.left)), style);
  }

  /** Adds SGR text already cut to fit (a preview line) and `width` cells it takes. */
  raw(text: string, width: number): this {
    this.#out += text + `\x1b[0${this.#base ? `;${this.#base}` : ""}m`;
    this.#used += width;
    return this;
  }

  /** The row, padded to its width. */
  done(): string {
    return this.#out + " ".repeat(Math.max(0, this.left)) + "\x1b[0m";
  }
}

/** The visible width of SGR text. */
export function visibleWidth(text: string): number {
  return textWidth(text.replace(/\x1b\[[0-9;:]*m/g, ""));
}

/** A path as people read it, with `~` for the home folder. */
export function home(path: string): string {
  const h = Deno.env.get("HOME");
  return h && path.startsWith(h + "/") ? `~${path.slice(h.length)}` : path;
}
