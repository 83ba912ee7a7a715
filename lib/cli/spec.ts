/**
 * The declarative shape of a command: what the parser reads and what `--help`
 * prints. Each file in `cmd/` exports one {@linkcode CommandSpec}.
 *
 * @module
 */

import type { Output } from "./output.ts";

/** How an option's value is read. */
export type OptionType = "boolean" | "string" | "number" | "list";

/** One `--option`. */
export interface OptionSpec {
  /** The long name, without dashes: `project` for `--project`. */
  name: string;
  /** A one-letter alias, without the dash. */
  short?: string;
  /** How the value is read. `list` may repeat and collects strings. */
  type: OptionType;
  /** The placeholder shown in help, such as `NAME`. */
  value?: string;
  /** One line of help. */
  help: string;
}

/** One positional argument. */
export interface ArgSpec {
  /** The placeholder shown in help, such as `PANE`. */
  name: string;
  /** Whether the command fails without it. */
  required?: boolean;
  /** Whether it takes every remaining positional argument. Only the last may be. */
  variadic?: boolean;
  /** One line of help. */
  help?: string;
}

/** What a command's `run` receives. */
export interface CommandContext {
  /** Positional arguments by name; a variadic one is a string array. */
  args: Record<string, string | string[] | undefined>;
  /** Parsed options by long name. */
  opts: Record<string, unknown>;
  /** Everything after `--`, when the command takes it. */
  rest: string[];
  /** Whether `--json` was given. */
  json: boolean;
  /** Where results go. */
  out: Output;
}

/** A command or a group of subcommands. */
export interface CommandSpec {
  /** The word that selects it. */
  name: string;
  /** Other words that select it. */
  aliases?: string[];
  /** One line for command lists. */
  summary: string;
  /** Longer text for `--help`. */
  description?: string;
  /** Positional arguments, in order. */
  args?: ArgSpec[];
  /** Options, besides the global `--json` and `--help`. */
  options?: OptionSpec[];
  /** The placeholder for arguments after `--`, such as `COMMAND ARGS…`. */
  passthrough?: string;
  /** Example lines for `--help`. */
  examples?: string[];
  /** Exit codes this command uses besides 0, 1 and 2, for `--help`. */
  exitCodes?: [number, string][];
  /** Subcommands; a group has these instead of `run`. */
  subcommands?: CommandSpec[];
  /** Runs the command and returns its exit code (0 when it returns nothing). */
  run?: (ctx: CommandContext) => Promise<number | void>;
}
