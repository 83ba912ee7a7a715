/**
 * Shell quoting and PATH lookup.
 *
 * @module
 */

import { delimiter, join } from "./path.ts";

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Joins words into one POSIX shell command line. */
export function shellLine(words: string[]): string {
  return words.map(shellQuote).join(" ");
}

/** Finds a program on PATH (or checks a path), returning its full path or undefined. */
export function which(program: string, path = Deno.env.get("PATH") ?? ""): string | undefined {
  const candidates = program.includes("/")
    ? [program]
    : path.split(delimiter).filter(Boolean).map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
