/**
 * Where keys are written in `projects.toml`, and the refusal of keys Skiff
 * does not know. smol-toml gives values without places, so {@linkcode
 * keyPlaces} scans the text (already known to be valid TOML) for the line
 * and column where each key and table is first written; an error about a
 * key can then say `file:line:col`, as a syntax error does.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";

/** A place in the text: line and column, both from 1. */
export interface TextPlace {
  /** The line, from 1. */
  line: number;
  /** The column, from 1. */
  col: number;
}

const pathKey = (path: readonly string[]) => JSON.stringify(path);

/** Reads one TOML key part at `at`: a bare key or a quoted one. */
function keyPart(text: string, at: number): { name: string; end: number } | undefined {
  const ch = text[at];
  if (ch === '"') {
    let end = at + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    const raw = text.slice(at, end + 1);
    try {
      return { name: JSON.parse(raw), end: end + 1 };
    } catch {
      return { name: raw.slice(1, -1), end: end + 1 };
    }
  }
  if (ch === "'") {
    const end = text.indexOf("'", at + 1);
    return end === -1 ? undefined : { name: text.slice(at + 1, end), end: end + 1 };
  }
  const bare = /[A-Za-z0-9_-]+/y;
  bare.lastIndex = at;
  const match = bare.exec(text);
  return match ? { name: match[0], end: at + match[0].length } : undefined;
}

/**
 * Scans valid TOML `text` and returns where each key and table is first
 * written, by its dotted path (array-of-tables indexes left out).
 */
export function keyPlaces(text: string): Map<string, TextPlace> {
  const places = new Map<string, TextPlace>();
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const placeOf = (index: number): TextPlace => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= index) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: index - lineStarts[low] + 1 };
  };
  const record = (path: string[], index: number) => {
    const key = pathKey(path);
    if (!places.has(key)) places.set(key, placeOf(index));
  };
  let i = 0;
  const blanks = (newlines: boolean) => {
    for (;;) {
      const ch = text[i];
      if (ch === " " || ch === "\t" || ch === "\r" || (newlines && ch === "\n")) i++;
      else if (newlines && ch === "#") {
        while (i < text.length && text[i] !== "\n") i++;
      } else return;
    }
  };
  /** A dotted key; records each prefix under `base`. */
  const key = (base: string[]): string[] => {
    const parts: string[] = [];
    for (;;) {
      blanks(false);
      const part = keyPart(text, i);
      if (!part) return parts;
      parts.push(part.name);
      record([...base, ...parts], i);
      i = part.end;
      blanks(false);
      if (text[i] !== ".") return parts;
      i++;
    }
  };
  const closing = (quote: string) => {
    const end = text.indexOf(quote, i);
    i = end === -1 ? text.length : end + quote.length;
  };
  const value = (path: string[]): void => {
    blanks(false);
    if (text.startsWith('"""', i)) {
      i += 3;
      while (i < text.length && !text.startsWith('"""', i)) i += text[i] === "\\" ? 2 : 1;
      i += 3;
      while (text[i] === '"') i++;
    } else if (text.startsWith("'''", i)) {
      i += 3;
      closing("'''");
      while (text[i] === "'") i++;
    } else if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (text[i] === "'") {
      i++;
      closing("'");
    } else if (text[i] === "[" || text[i] === "{") {
      const table = text[i] === "{";
      const end = table ? "}" : "]";
      i++;
      for (;;) {
        blanks(true);
        if (i >= text.length || text[i] === end) break;
        const from = i;
        if (table) {
          const parts = key(path);
          blanks(false);
          if (text[i] === "=") i++;
          value([...path, ...parts]);
        } else {
          value(path);
        }
        blanks(true);
        if (text[i] === ",") i++;
        else if (i === from) i++;
      }
      i++;
    } else {
      while (i < text.length && !",]}\n#".includes(text[i])) i++;
    }
  };
  let table: string[] = [];
  while (i < text.length) {
    blanks(true);
    if (i >= text.length) break;
    const from = i;
    if (text[i] === "[") {
      const array = text[i + 1] === "[";
      i += array ? 2 : 1;
      table = key([]);
      blanks(false);
      i += array ? 2 : 1;
    } else {
      const parts = key(table);
      blanks(false);
      if (text[i] === "=") i++;
      value([...table, ...parts]);
    }
    // Whatever is left of the line is blanks or a comment.
    while (i < text.length && text[i] !== "\n") i++;
    if (i === from) i++;
  }
  return places;
}

/** The edit distance of `a` and `b`, a swap of two neighbours counting as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/** The known word nearest to `word`, if one is near enough to be a likely typo. */
export function nearestWord(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A third of the word may be wrong (scrolback, foldr, projeccts), at least one letter.
  if (bestDistance <= Math.max(1, Math.floor(word.length / 3))) return best;
  // Or it is a known key cut short, or one with more added (continue, turn_start).
  return word.length < 4 ? undefined : known.find((candidate) => {
    const name = candidate.toLowerCase();
    return name.startsWith(lower) || (candidate.length >= 4 && lower.startsWith(name));
  });
}

/** A name Skiff does not know that stands for one it keeps under another name. */
export interface KeptElsewhere {
  /** The known name. */
  name: string;
  /** What the refusal says after the unknown name: where the settings are. */
  hint: string;
}

/** Formats a dotted path as the user would write it. */
function dotted(path: readonly string[]): string {
  return path.map((p) => /^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p)).join(".");
}

/**
 * The places of one config text, for error lines: `file:line:col` for a key
 * path, or just `file` when the key is not written in it.
 */
export class ConfigPlaces {
  /** The file the text came from. */
  readonly file: string;
  readonly #text: string;
  #places: Map<string, TextPlace> | undefined;

  /** Keeps `text` to scan it when an error first needs a place. */
  constructor(file: string, text: string) {
    this.file = file;
    this.#text = text;
  }

  /** Where `path` is first written, if it is. */
  find(path: readonly string[]): TextPlace | undefined {
    this.#places ??= keyPlaces(this.#text);
    return this.#places.get(pathKey(path));
  }

  /** `file:line:col` of `path`, or `file` when it is not written. */
  at(path: readonly string[]): string {
    const place = this.find(path);
    return place ? `${this.file}:${place.line}:${place.col}` : this.file;
  }

  /** A USAGE error about the key at `path`: `file:line:col: 'a.b' <what>`. */
  keyError(path: readonly string[], what: string): SkiffError {
    return new SkiffError(`${this.at(path)}: '${dotted(path)}' ${what}`, { exit: "USAGE" });
  }

  /**
   * Refuses the first key of `table` (found at `path`) that is not in
   * `known`, naming it, its place and the nearest known key. `kind` words
   * the refusal: the top level holds tables. A name in `elsewhere` (one
   * that people write for a setting Skiff keeps under another name) gets
   * its own hint and suggestion instead.
   */
  onlyKnown(
    table: Record<string, unknown>,
    path: readonly string[],
    known: readonly string[],
    kind: "key" | "table" = "key",
    elsewhere: Readonly<Record<string, KeptElsewhere>> = {},
  ): void {
    for (const name of Object.keys(table)) {
      if (known.includes(name)) continue;
      const full = [...path, name];
      const moved = Object.hasOwn(elsewhere, name) ? elsewhere[name] : undefined;
      const near = moved?.name ?? nearestWord(name, known);
      const where = path.length === 0 ? "" : ` in [${dotted(path)}]`;
      const hint = moved
        ? moved.hint
        : near !== undefined
        ? `did you mean '${near}'?`
        : `${path.length === 0 ? "the tables are" : "known keys:"} ${known.join(", ")}`;
      throw new SkiffError(
        `${this.at(full)}: unknown ${kind} '${name}'${where}; ${hint}`,
        { exit: "USAGE", details: { key: dotted(full), ...(near ? { suggestion: near } : {}) } },
      );
    }
  }
}
