/**
 * Parses a command line against a {@linkcode CommandSpec}.
 *
 * Written by hand rather than with a library: it costs nothing at start-up
 * (the CLI is called by agents in tight loops), and usage errors get our exit
 * code 2 and one line that says what to do.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { ArgSpec, CommandSpec, OptionSpec } from "./spec.ts";

/** The global options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: "json", type: "boolean", help: "Print JSON for scripts" },
  { name: "help", short: "h", type: "boolean", help: "Show this help" },
];

/** The result of parsing. */
export interface Parsed {
  /** The chosen command, after walking subcommands. */
  command: CommandSpec;
  /** The words that chose it, such as `["daemon", "start"]`. */
  path: string[];
  /** Positional arguments by name. */
  args: Record<string, string | string[] | undefined>;
  /** Options by long name. */
  opts: Record<string, unknown>;
  /** Everything after `--`. */
  rest: string[];
}

/**
 * A usage error (exit `USAGE`): `message`, then where the help of the
 * command at `path` (such as `["ledger", "add"]`) is.
 */
export function usageError(message: string, path: readonly string[]): SkiffError {
  const help = ["skiff", ...path, "--help"].join(" ");
  return new SkiffError(`${message}. See '${help}'.`, { exit: "USAGE" });
}

/** Finds a subcommand by name or alias. */
export function findCommand(list: readonly CommandSpec[], word: string): CommandSpec | undefined {
  return list.find((c) => c.name === word || c.aliases?.includes(word));
}

function readValue(option: OptionSpec, raw: string, path: string[]): unknown {
  if (option.type === "number") {
    const value = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(value)) {
      throw usageError(`Option '--${option.name}' needs a number, not '${raw}'`, path);
    }
    return value;
  }
  return raw;
}

/**
 * Parses `argv` for `root`, descending into subcommands.
 *
 * Options may come before or after positional arguments. `--name=value` and
 * `--name value` both work; a `list` option may repeat. A boolean option
 * with `inlineValue` takes a value only as `--name=value`.
 */
export function parse(
  root: CommandSpec,
  argv: string[],
  options: { prefix?: string[] } = {},
): Parsed {
  let command = root;
  const path: string[] = [];
  // Error messages name the whole command, prefix included.
  const where = () => [...(options.prefix ?? []), ...path];
  const opts: Record<string, unknown> = {};
  const positional: string[] = [];
  let rest: string[] = [];
  let i = 0;

  const optionsOf = (c: CommandSpec) => [...(c.options ?? []), ...GLOBAL_OPTIONS];

  while (i < argv.length) {
    const word = argv[i];
    if (word === "--") {
      if (!command.passthrough) throw usageError(`'${word}' is not allowed here`, where());
      rest = argv.slice(i + 1);
      break;
    }
    if (word.startsWith("-") && word !== "-") {
      const options = optionsOf(command);
      let name: string;
      let inline: string | undefined;
      let option: OptionSpec | undefined;
      if (word.startsWith("--")) {
        const eq = word.indexOf("=");
        name = eq === -1 ? word.slice(2) : word.slice(2, eq);
        inline = eq === -1 ? undefined : word.slice(eq + 1);
        option = options.find((o) => o.name === name);
      } else {
        name = word.slice(1);
        if (name.length > 1 && !/^\d/.test(name)) {
          inline = name.slice(1);
          name = name[0];
        }
        option = options.find((o) => o.short === name);
      }
      if (!option) {
        // A negative number is a value when a positional argument can take it.
        const specs = command.args ?? [];
        const room = specs.some((a) => a.variadic) || positional.length < specs.length;
        if (/^-\d/.test(word) && room) {
          positional.push(word);
          i++;
          continue;
        }
        throw usageError(`Unknown option '${word}'`, where());
      }
      if (option.type === "boolean") {
        if (inline !== undefined && !option.inlineValue) {
          throw usageError(`Option '--${option.name}' takes no value`, where());
        }
        if (inline === "") {
          const value = option.value ?? "VALUE";
          throw usageError(`Option '--${option.name}=' needs a ${value} after '='`, where());
        }
        // A flag that may carry a value has it only when written on it: `--push=upstream`.
        opts[option.name] = inline ?? true;
        i++;
        continue;
      }
      let raw = inline;
      if (raw === undefined) {
        if (i + 1 >= argv.length) {
          throw usageError(`Option '--${option.name}' needs a value`, where());
        }
        raw = argv[++i];
      }
      const value = readValue(option, raw, where());
      if (option.type === "list") {
        opts[option.name] = [...((opts[option.name] as string[] | undefined) ?? []), value];
      } else {
        opts[option.name] = value;
      }
      i++;
      continue;
    }
    if (command.subcommands && positional.length === 0) {
      const sub = findCommand(command.subcommands, word);
      if (!sub) throw usageError(`Unknown command '${[...where(), word].join(" ")}'`, where());
      command = sub;
      path.push(sub.name);
      i++;
      continue;
    }
    positional.push(word);
    i++;
  }

  const args: Record<string, string | string[] | undefined> = {};
  if (!opts.help && command.run) {
    const specs = command.args ?? [];
    let p = 0;
    for (const spec of specs) {
      if (spec.variadic) {
        const values = positional.slice(p);
        p = positional.length;
        if (spec.required && values.length === 0) {
          throw usageError(`Missing argument ${spec.name}`, where());
        }
        for (const value of values) {
          checkFilled(spec, value, where());
          checkChoice(spec.choices, value, spec.name, where());
        }
        args[spec.name] = values;
        continue;
      }
      const value = positional[p];
      if (value === undefined) {
        if (spec.required) throw usageError(`Missing argument ${spec.name}`, where());
      } else {
        checkFilled(spec, value, where());
        checkChoice(spec.choices, value, spec.name, where());
        p++;
      }
      args[spec.name] = value;
    }
    if (p < positional.length) {
      throw usageError(`Unexpected argument '${positional[p]}'`, where());
    }
    checkOptions(optionsOf(command), opts, where());
  }
  return { command, path, args, opts, rest };
}

/**
 * Refuses an empty value for an argument whose spec does not allow one, in
 * the argument's own name: an empty pane or name would otherwise reach
 * skiffd and come back in the words of the protocol.
 */
function checkFilled(spec: ArgSpec, value: string, path: string[]): void {
  if (value === "" && !spec.empty) throw usageError(`Argument ${spec.name} is empty`, path);
}

/**
 * Refuses an empty value for an option whose spec does not allow one, as
 * {@linkcode checkFilled} does for arguments: `--name ''` would otherwise
 * reach skiffd and come back in the words of the protocol.
 */
function checkFilledOption(spec: OptionSpec, value: unknown, path: string[]): void {
  const values = spec.type === "list" ? value as string[] : [value];
  if (values.includes("") && !spec.empty) {
    throw usageError(`Option '--${spec.name}' is empty`, path);
  }
}

function checkChoice(
  choices: readonly string[] | undefined,
  value: string,
  label: string,
  path: string[],
): void {
  if (!choices || choices.includes(value)) return;
  const list = choices.length > 1
    ? `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`
    : choices[0];
  throw usageError(`Bad value '${value}' for ${label}: use ${list}`, path);
}

/** Checks required, conflicting and dependent options and choices, and fills in defaults. */
function checkOptions(
  specs: readonly OptionSpec[],
  opts: Record<string, unknown>,
  path: string[],
): void {
  const given = (name: string) => opts[name] !== undefined;
  // An empty value first, whatever else is missing: it is the mistake on this line.
  for (const spec of specs) {
    if (given(spec.name) && spec.type !== "boolean") checkFilledOption(spec, opts[spec.name], path);
  }
  for (const spec of specs) {
    if (!given(spec.name)) {
      if (spec.required) throw usageError(`Option '--${spec.name}' is required`, path);
      continue;
    }
    for (const other of spec.conflicts ?? []) {
      if (given(other)) throw usageError(`Give --${spec.name} or --${other}, not both`, path);
    }
    for (const other of spec.requires ?? []) {
      if (!given(other)) throw usageError(`--${spec.name} needs --${other}`, path);
    }
    const values = spec.type === "list" ? opts[spec.name] as string[] : [opts[spec.name]];
    if (spec.type !== "boolean") {
      for (const value of values) checkChoice(spec.choices, String(value), `--${spec.name}`, path);
    }
  }
  for (const spec of specs) {
    if (given(spec.name)) continue;
    if (spec.type === "boolean") opts[spec.name] = false;
    else if (spec.type === "list") opts[spec.name] = [];
  }
}
