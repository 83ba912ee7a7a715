/**
 * Renders `--help` text from a {@linkcode CommandSpec}.
 *
 * @module
 */

import { exitTable } from "./exits.ts";
import { GLOBAL_OPTIONS } from "./parse.ts";
import type { ArgSpec, CommandSpec, OptionSpec } from "./spec.ts";

function argUsage(arg: ArgSpec): string {
  const name = arg.variadic ? `${arg.name}…` : arg.name;
  return arg.required ? name : `[${name}]`;
}

function optionLabel(option: OptionSpec): string {
  const long = `--${option.name}`;
  const placeholder = option.value ?? "VALUE";
  const value = option.type !== "boolean"
    ? ` ${placeholder}`
    : option.inlineValue
    ? `[=${placeholder}]`
    : "";
  const short = option.short ? `-${option.short}, ` : "    ";
  const repeat = option.type === "list" ? " (repeatable)" : "";
  const required = option.required ? " (required)" : "";
  return `${short}${long}${value}${repeat}${required}`;
}

function optionHelp(option: OptionSpec): string {
  const choices = option.choices ? ` (${option.choices.join(", ")})` : "";
  return option.help + choices;
}

function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

/** Returns the help text for `command`, reached through `path`. */
export function renderHelp(command: CommandSpec, path: string[]): string {
  const name = ["skiff", ...path].join(" ");
  const lines: string[] = [];
  if (command.subcommands && !command.run) {
    lines.push(`Usage: ${name} COMMAND [options]`, "", command.description ?? command.summary, "");
    lines.push("Commands:");
    lines.push(
      ...columns(command.subcommands.filter((c) => !c.hidden).map((c) => [c.name, c.summary])),
    );
    lines.push("", `Run '${name} COMMAND --help' for a command's options.`);
    return lines.join("\n");
  }
  const parts = [name];
  for (const arg of command.args ?? []) parts.push(argUsage(arg));
  parts.push("[options]");
  if (command.passthrough) parts.push(`[-- ${command.passthrough}]`);
  lines.push(`Usage: ${parts.join(" ")}`);
  // A group that also runs on its own: its commands follow its own usage.
  if (command.subcommands) lines.push(`       ${name} COMMAND [options]`);
  lines.push("", command.description ?? command.summary);
  if (command.subcommands) {
    lines.push("", "Commands:");
    lines.push(
      ...columns(command.subcommands.filter((c) => !c.hidden).map((c) => [c.name, c.summary])),
    );
  }
  const args = (command.args ?? []).filter((a) => a.help);
  if (args.length) {
    lines.push("", "Arguments:");
    lines.push(...columns(args.map((a) => [a.name, a.help ?? ""])));
  }
  lines.push("", "Options:");
  const options = [...(command.options ?? []), ...GLOBAL_OPTIONS];
  lines.push(...columns(options.map((o) => [optionLabel(o), optionHelp(o)])));
  if (command.examples?.length) {
    lines.push("", "Examples:", ...command.examples.map((e) => `  ${e}`));
  }
  const codes = exitTable(command.exits);
  lines.push("", "Exit codes:");
  lines.push(...columns(codes.map(([code, text]) => [String(code), text])));
  return lines.join("\n");
}

/** Returns the top-level help: every command with its summary. */
export function renderRootHelp(
  entries: readonly { name: string; summary: string; hidden?: boolean }[],
): string {
  return [
    "Usage: skiff COMMAND [options]",
    "",
    "Skiff: a terminal workspace for coding agents.",
    "",
    "Commands:",
    ...columns(entries.filter((e) => !e.hidden).map((e) => [e.name, e.summary])),
    "",
    "Every command takes --json (results on stdout, errors on stderr as JSON)",
    "and --help, before or after the command (skiff --json ls, skiff ls --json).",
    "Run 'skiff COMMAND --help' for its options and exit codes.",
  ].join("\n");
}
