/**
 * The declarative shape of a command: what the parser reads, what `--help`
 * prints, what shell completion offers, and which exit codes it uses. Each
 * file in `cmd/` exports one {@linkcode CommandSpec}, usually made with
 * {@linkcode defineCommand} so that `run` sees its options and arguments
 * typed from the spec itself.
 *
 * @module
 */

import type { ExitName } from "../errors.ts";
import type { Output } from "./output.ts";

/** How an option's value is read. */
export type OptionType = "boolean" | "string" | "number" | "list";

/** What shell completion offers for a value. */
export type CompleteKind =
  | "pane"
  | "session"
  | "project"
  | "agent"
  | "task"
  | "worktree"
  | "file"
  | "dir"
  | "shell";

/** One `--option`. */
export interface OptionSpec {
  /** The long name, without dashes: `project` for `--project`. */
  readonly name: string;
  /** A one-letter alias, without the dash. */
  readonly short?: string;
  /** How the value is read. `list` may repeat and collects strings. */
  readonly type: OptionType;
  /** The placeholder shown in help, such as `NAME`. */
  readonly value?: string;
  /**
   * For a `boolean` option: it may carry a value written on it with `=`
   * (`--push=REMOTE`, named by `value`), and is then that value instead of
   * `true`. The next word is never taken for it, so `--push PANE` stays the
   * flag and an argument (as getopt's optional arguments are read).
   */
  readonly inlineValue?: boolean;
  /** One line of help. */
  readonly help: string;
  /** The command fails without it. */
  readonly required?: boolean;
  /** Options that cannot be given with this one. */
  readonly conflicts?: readonly string[];
  /** Options this one needs. */
  readonly requires?: readonly string[];
  /**
   * Whether an empty string is a value (`--ref ''` clears a ref). Without it
   * the parser refuses `--name ''` as a usage error that names the option,
   * before the command runs.
   */
  readonly empty?: boolean;
  /** The only values allowed. */
  readonly choices?: readonly string[];
  /** Values completion offers without restricting them (the command checks them itself). */
  readonly suggest?: readonly string[];
  /** What completion offers for the value. */
  readonly complete?: CompleteKind;
}

/** One positional argument. */
export interface ArgSpec {
  /** The placeholder shown in help, such as `PANE`. */
  readonly name: string;
  /** Whether the command fails without it. */
  readonly required?: boolean;
  /** Whether it takes every remaining positional argument. Only the last may be. */
  readonly variadic?: boolean;
  /**
   * Whether an empty string is a value. Without it the parser refuses `''`
   * as a usage error that names the argument, before the command runs.
   */
  readonly empty?: boolean;
  /** One line of help. */
  readonly help?: string;
  /** The only values allowed. */
  readonly choices?: readonly string[];
  /** What completion offers. */
  readonly complete?: CompleteKind;
}

/** An exit code a command uses: its name, or its name with a meaning particular to the command. */
export type ExitUse = ExitName | readonly [ExitName, string];

/** What a command's `run` receives, untyped (see {@linkcode TypedContext}). */
export interface CommandContext {
  /** Positional arguments by name; a variadic one is a string array. */
  args: Record<string, string | string[] | undefined>;
  /** Parsed options by long name; booleans default to false and lists to []. */
  opts: Record<string, unknown>;
  /** Everything after `--`, when the command takes it. */
  rest: string[];
  /** Whether `--json` was given. */
  json: boolean;
  /** Where results go. */
  out: Output;
}

/** One row of the command table: enough to list a command without loading it. */
export interface CommandEntry {
  /** The word that selects it. */
  name: string;
  /** Other words that select it. */
  aliases?: string[];
  /** One line for `skiff --help`. */
  summary: string;
  /** Left out of `skiff --help` and of completion. */
  hidden?: boolean;
  /** Loads the command's module and returns its spec. */
  load: () => Promise<CommandSpec>;
}

/** A command or a group of subcommands. */
export interface CommandSpec {
  /** The word that selects it. */
  name: string;
  /** Other words that select it. */
  aliases?: readonly string[];
  /** One line for command lists. */
  summary: string;
  /** Longer text for `--help`. */
  description?: string;
  /** Positional arguments, in order. */
  args?: readonly ArgSpec[];
  /** Options, besides the global `--json` and `--help`. */
  options?: readonly OptionSpec[];
  /** The placeholder for arguments after `--`, such as `COMMAND ARGS…`. */
  passthrough?: string;
  /** Example lines for `--help`. */
  examples?: readonly string[];
  /** Exit codes this command uses besides 0, 1 and 2, for `--help`. */
  exits?: readonly ExitUse[];
  /** Left out of `skiff --help` and of completion (commands for programs, not people). */
  hidden?: boolean;
  /**
   * Subcommands. A group has these instead of `run`, or besides it: then
   * `run` is what the group does when no subcommand is named.
   */
  subcommands?: readonly CommandSpec[];
  /** Runs the command and returns its exit code (0 when it returns nothing). */
  run?: (ctx: CommandContext) => Promise<number | void>;
}

/** The required `PANE` argument most pane commands take first, with pane completion. */
export const PANE_ARG = {
  name: "PANE",
  required: true,
  help: "Pane id, name, project/name, or HOST:PANE for a pane on another host",
  complete: "pane",
} as const satisfies ArgSpec;

type ValueOf<O extends OptionSpec> = O["type"] extends "number" ? number : string;

/** The type of option `O`'s value in `run`. */
export type OptionValue<O extends OptionSpec> = O["type"] extends "boolean"
  ? O extends { readonly inlineValue: true } ? boolean | string : boolean
  : O["type"] extends "list" ? string[]
  : O extends { readonly required: true } ? ValueOf<O>
  : ValueOf<O> | undefined;

/** The options of a command, typed from its specs. */
export type OptionsOf<O extends readonly OptionSpec[]> =
  & { [K in O[number] as K["name"]]: OptionValue<K> }
  & { json: boolean; help: boolean };

/** The type of argument `A`'s value in `run`. */
export type ArgValue<A extends ArgSpec> = A extends { readonly variadic: true } ? string[]
  : A extends { readonly required: true } ? string
  : string | undefined;

/** The arguments of a command, typed from its specs. */
export type ArgsOf<A extends readonly ArgSpec[]> = { [K in A[number] as K["name"]]: ArgValue<K> };

/** What a command made with {@linkcode defineCommand} receives. */
export interface TypedContext<A extends readonly ArgSpec[], O extends readonly OptionSpec[]> {
  /** Positional arguments, typed from the specs. */
  args: ArgsOf<A>;
  /** Options, typed from the specs. */
  opts: OptionsOf<O>;
  /** Everything after `--`, when the command takes it. */
  rest: string[];
  /** Whether `--json` was given. */
  json: boolean;
  /** Where results go. */
  out: Output;
}

/** A command spec whose `run` is typed by its own `args` and `options`. */
export interface TypedCommandSpec<A extends readonly ArgSpec[], O extends readonly OptionSpec[]>
  extends Omit<CommandSpec, "args" | "options" | "run"> {
  /** Positional arguments, in order. */
  args?: A;
  /** Options, besides the global `--json` and `--help`. */
  options?: O;
  /** Runs the command and returns its exit code (0 when it returns nothing). */
  run: (ctx: TypedContext<A, O>) => Promise<number | void> | number | void;
}

/**
 * Makes a command whose `run` receives options and arguments typed from the
 * spec: `--enter` of type boolean is a `boolean`, `--timeout` of type number
 * a `number | undefined`, a required `PANE` a `string`. The parser fills in
 * defaults and checks required, conflicting and dependent options and
 * choices, so `run` checks none of them.
 */
export function defineCommand<
  const A extends readonly ArgSpec[] = [],
  const O extends readonly OptionSpec[] = [],
>(spec: TypedCommandSpec<A, O>): CommandSpec {
  const run = spec.run;
  return {
    ...spec,
    run: async (ctx) => await run(ctx as unknown as TypedContext<A, O>),
  };
}
