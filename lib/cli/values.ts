/**
 * Parsers for the value formats several commands share: sizes, durations
 * and `K=V` pairs.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { MAX_PANE_SIZE, MIN_PANE_SIZE } from "../protocol/pane_size.ts";

/** A terminal size. */
export interface Size {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
}

/**
 * Parses `COLSxROWS`, such as `120x40`: each from 1 to the largest a pane
 * takes (1000). A size below the smallest pane is allowed here and raised by
 * {@linkcode fitPaneSize}.
 */
export function parseSize(text: string): Size {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(text.trim());
  const cols = match ? Number(match[1]) : 0;
  const rows = match ? Number(match[2]) : 0;
  if (!match || cols < 1 || rows < 1 || cols > MAX_PANE_SIZE.cols || rows > MAX_PANE_SIZE.rows) {
    const min = `${MIN_PANE_SIZE.cols}x${MIN_PANE_SIZE.rows}`;
    throw new SkiffError(
      `Bad size '${text}': use COLSxROWS, such as 120x40, up to ${MAX_PANE_SIZE.cols}x${MAX_PANE_SIZE.rows}; a pane is at least ${min} (a smaller size is raised to it)`,
      { exit: "USAGE" },
    );
  }
  return { cols, rows };
}

/** A size fitted to what a pane takes, and the size asked for when it had to be raised. */
export interface FittedSize extends Size {
  /** The size asked for, when it was below the smallest pane; else `null`. */
  raisedFrom: Size | null;
}

/** Raises `size` to the smallest a pane takes (20x5), saying when it did. */
export function fitPaneSize(size: Size): FittedSize {
  const cols = Math.max(MIN_PANE_SIZE.cols, size.cols);
  const rows = Math.max(MIN_PANE_SIZE.rows, size.rows);
  const raised = cols !== size.cols || rows !== size.rows;
  return { cols, rows, raisedFrom: raised ? { cols: size.cols, rows: size.rows } : null };
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
