/**
 * Printing results and errors, as text for people or JSON for scripts.
 *
 * JSON results go to stdout as one object with a `schema_version`; JSON errors
 * go to stderr with the exit code's name. Text errors are one line on stderr.
 *
 * @module
 */

import { errorJson, Exit } from "../errors.ts";
import { SCHEMA_VERSION } from "../version.ts";
import { writeAllSync } from "../platform/bytes.ts";

const encoder = new TextEncoder();

/**
 * The reader of the command's output closed its end of the pipe (`skiff ls
 * | head -1`): there is nobody left to tell anything, so the command ends
 * at once, quietly, with exit 0 (see {@linkcode reportError}).
 */
export class ReaderGone extends Error {
  /** Makes the error for the stream `name` (`stdout`, `stderr`). */
  constructor(name: string) {
    super(`the reader of ${name} is gone`);
    this.name = "ReaderGone";
  }
}

/** A standard stream whose closed pipe throws {@linkcode ReaderGone}. */
function guarded(
  stream: { writeSync(p: Uint8Array): number },
  name: string,
): { writeSync(p: Uint8Array): number } {
  return {
    writeSync(p: Uint8Array): number {
      try {
        return stream.writeSync(p);
      } catch (error) {
        if (error instanceof Deno.errors.BrokenPipe) throw new ReaderGone(name);
        throw error;
      }
    },
  };
}

/**
 * Standard output for commands: write to this, never to `Deno.stdout`, so
 * that a reader that goes away ends the command quietly instead of as an
 * internal error.
 */
export const stdout: { writeSync(p: Uint8Array): number } = guarded(Deno.stdout, "stdout");

/** Standard error for commands, guarded as {@linkcode stdout} is. */
export const stderr: { writeSync(p: Uint8Array): number } = guarded(Deno.stderr, "stderr");

/** Where a command's results go. */
export class Output {
  /** Whether results are JSON. */
  readonly json: boolean;

  /** Makes an output that prints JSON when `json` is true. */
  constructor(json: boolean) {
    this.json = json;
  }

  /** Prints a line of text to stdout (text mode only). */
  line(text = ""): void {
    if (!this.json) writeAllSync(stdout, encoder.encode(text + "\n"));
  }

  /** Prints a result object to stdout as JSON, with `schema_version` first. */
  data(value: object): void {
    const body = JSON.stringify({ schema_version: SCHEMA_VERSION, ...value });
    writeAllSync(stdout, encoder.encode(body + "\n"));
  }

  /** Prints `value` as JSON in JSON mode, or runs `text` to print it for people. */
  result(value: object, text: () => void): void {
    if (this.json) this.data(value);
    else text();
  }

  /** Prints a notice to stderr (text mode only): a hint that is not the result. */
  notice(text: string): void {
    if (this.json) return;
    try {
      writeAllSync(stderr, encoder.encode(text + "\n"));
    } catch (error) {
      // A hint nobody reads is no reason to stop.
      if (!(error instanceof ReaderGone)) throw error;
    }
  }
}

/**
 * Prints an error the way the mode asks and returns its exit code. A reader
 * that went away ({@linkcode ReaderGone}) is no error: nothing is printed,
 * and the exit is 0.
 */
export function reportError(error: unknown, json: boolean): number {
  if (error instanceof ReaderGone) return Exit.OK;
  const shown = errorJson(error);
  const text = json ? JSON.stringify(shown) : `skiff: ${shown.error.message}`;
  try {
    writeAllSync(stderr, encoder.encode(text + "\n"));
  } catch (failed) {
    // Nobody reads stderr any more: the exit code still tells.
    if (!(failed instanceof ReaderGone)) throw failed;
  }
  return shown.error.exit;
}

/**
 * The width a table's last column is cut to: the terminal's columns when
 * stdout is a terminal, else `undefined`. Text that goes to a file or a pipe
 * keeps every column whole, whatever `COLUMNS` says: a script or `grep`
 * reads the whole title or task, and a person's terminal width means nothing
 * there.
 */
export function terminalWidth(): number | undefined {
  try {
    if (!Deno.stdout.isTerminal()) return undefined;
    const { columns } = Deno.consoleSize();
    return columns >= 20 ? columns : undefined;
  } catch {
    return undefined;
  }
}

/** Cuts `text` to `width` characters, ending it with `…` when it was longer. */
export function cut(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return chars.slice(0, Math.max(0, width - 1)).join("") + "…";
}

/** Options for {@linkcode table}. */
export interface TableOptions {
  /** Cut the last column so each line fits this many characters (never below 10 for it). */
  width?: number;
}

/** Formats rows as aligned columns, for tables in text output. */
export function table(header: string[], rows: string[][], options: TableOptions = {}): string {
  const last = header.length - 1;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const before = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const room = options.width === undefined ? Infinity : Math.max(10, options.width - before);
  const fmt = (cells: string[]) =>
    cells.map((c, i) => i === last ? cut(c, room) : c.padEnd(widths[i])).join("  ").trimEnd();
  return [fmt(header), ...rows.map(fmt)].join("\n");
}
