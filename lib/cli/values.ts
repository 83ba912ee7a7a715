/**
 * Parsers for the value formats several commands share: sizes, durations
 * and `K=V` pairs.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";

/** A terminal size. */
export interface Size {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
}

/** Parses `COLSxROWS`, such as `120x40`. */
export function parseSize(text: string): Size {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(text.trim());
  const cols = match ? Number(match[1]) : 0;
  const rows = match ? Number(match[2]) : 0;
  if (!match || cols < 2 || rows < 2 || cols > 1000 || rows > 1000) {
    throw new SkiffError(
      `Bad size '${text}': use COLSxROWS, such as 120x40 (2 to 1000 each)`,
      { exit: "USAGE" },
    );
  }
  return { cols, rows };
}

/** Parses `K=V` pairs into a record; the key must be a valid variable name. */
export function parseEnvPairs(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (eq === -1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new SkiffError(`Bad environment pair '${pair}': use KEY=VALUE`, { exit: "USAGE" });
    }
    env[key] = pair.slice(eq + 1);
  }
  return env;
}

/** Checks a number of seconds given on the command line and returns milliseconds. */
export function secondsToMs(seconds: number, option: string): number {
  if (!(seconds >= 0) || seconds > 86_400) {
    throw new SkiffError(`Option '--${option}' needs seconds from 0 to 86400`, {
      exit: "USAGE",
    });
  }
  return Math.round(seconds * 1000);
}
