/**
 * Shell completion from the command specs: the words typed so far go in,
 * the candidates for the last word come out. The shell scripts of
 * `skiff completions` are thin: they pass the words to `skiff __complete`
 * and show what it prints, so completion always matches the program.
 *
 * @module
 */

import { findCommand, GLOBAL_OPTIONS } from "./parse.ts";
import type { ArgSpec, CommandEntry, CommandSpec, CompleteKind, OptionSpec } from "./spec.ts";

/** Where dynamic values come from: panes, sessions, projects, agents, tasks. */
export type ValueSource = (kind: CompleteKind) => Promise<string[]>;

/** What to offer for the word being typed. */
export type Completion =
  | { kind: "words"; words: string[] }
  | { kind: "files" }
  | { kind: "dirs" };

const FILES: Completion = { kind: "files" };
const DIRS: Completion = { kind: "dirs" };

function words(list: readonly string[], prefix: string): Completion {
  return { kind: "words", words: [...new Set(list)].filter((w) => w.startsWith(prefix)).sort() };
}

async function valuesFor(
  spec: { choices?: readonly string[]; suggest?: readonly string[]; complete?: CompleteKind },
  prefix: string,
  source: ValueSource,
): Promise<Completion> {
  const fixed = spec.choices ?? spec.suggest;
  if (fixed) return words(fixed, prefix);
  if (spec.complete === "file") return FILES;
  if (spec.complete === "dir") return DIRS;
  if (spec.complete) return words(await source(spec.complete).catch(() => []), prefix);
  return words([], prefix);
}

function optionNames(command: CommandSpec): string[] {
  return [...(command.options ?? []), ...GLOBAL_OPTIONS].map((o) => `--${o.name}`);
}

function findOption(command: CommandSpec, word: string): OptionSpec | undefined {
  const options = [...(command.options ?? []), ...GLOBAL_OPTIONS];
  if (word.startsWith("--")) return options.find((o) => o.name === word.slice(2));
  if (word.length === 2) return options.find((o) => o.short === word[1]);
  return undefined;
}

/**
 * Returns what to offer for the last of `typed`, the words after `skiff`
 * (the last may be empty: the cursor is after a space).
 */
export async function complete(
  entries: readonly CommandEntry[],
  typed: readonly string[],
  source: ValueSource,
): Promise<Completion> {
  const current = typed.at(-1) ?? "";
  const before = typed.slice(0, -1);
  if (before.length === 0) {
    if (current.startsWith("-")) return words(["--help", "--version", "--json"], current);
    return words(entries.filter((e) => !e.hidden).map((e) => e.name), current);
  }
  const entry = entries.find((e) => e.name === before[0] || e.aliases?.includes(before[0]));
  if (!entry) return words([], current);
  let command = await entry.load();
  const positional: string[] = [];
  let afterDashes = false;
  for (let i = 1; i < before.length; i++) {
    const word = before[i];
    if (afterDashes) continue;
    if (word === "--") {
      afterDashes = true;
      continue;
    }
    if (word.startsWith("-") && word !== "-") {
      const option = findOption(command, word.split("=")[0]);
      if (option && option.type !== "boolean" && !word.includes("=")) i++;
      continue;
    }
    const sub = command.subcommands && positional.length === 0
      ? findCommand(command.subcommands, word)
      : undefined;
    if (sub) command = sub;
    else positional.push(word);
  }
  if (afterDashes) return FILES;
  const previous = before.at(-1) ?? "";
  const option = previous.startsWith("-") ? findOption(command, previous) : undefined;
  if (option && option.type !== "boolean") return await valuesFor(option, current, source);
  if (current.startsWith("-")) return words(optionNames(command), current);
  if (command.subcommands && positional.length === 0) {
    return words(command.subcommands.filter((c) => !c.hidden).map((c) => c.name), current);
  }
  const specs: readonly ArgSpec[] = command.args ?? [];
  const last = specs.at(-1);
  const arg = positional.length < specs.length
    ? specs[positional.length]
    : last?.variadic
    ? last
    : undefined;
  if (!arg) return words([], current);
  return await valuesFor(arg, current, source);
}

/** The text `skiff __complete` prints: one candidate a line, or `:files` / `:dirs`. */
export function completionText(completion: Completion): string {
  if (completion.kind === "files") return ":files";
  if (completion.kind === "dirs") return ":dirs";
  return completion.words.join("\n");
}

/** The shells `skiff completions` writes scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** A shell `skiff completions` writes a script for. */
export type Shell = typeof SHELLS[number];

/**
 * The completion script for `shell`. `helper` is the shell command that runs
 * `skiff __complete --`, quoted for the shell; the words go after it.
 */
export function completionScript(shell: Shell, helper: string): string {
  switch (shell) {
    case "bash":
      return [
        "# skiff completion for bash: add `source <(skiff completions bash)` to ~/.bashrc",
        "_skiff_complete() {",
        '  local cur="${COMP_WORDS[COMP_CWORD]}" out',
        "  local IFS=$'\\n'",
        `  out=$(${helper} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0`,
        '  case "$out" in',
        '    :files) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;',
        '    :dirs) COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null ;;',
        '    *) COMPREPLY=($(compgen -W "$out" -- "$cur")) ;;',
        "  esac",
        "}",
        "complete -F _skiff_complete skiff",
        "",
      ].join("\n");
    case "zsh":
      return [
        "#compdef skiff",
        "# skiff completion for zsh: add `source <(skiff completions zsh)` to ~/.zshrc",
        "_skiff() {",
        "  local out",
        `  out=$(${helper} "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1`,
        "  case $out in",
        "    :files) _files ;;",
        "    :dirs) _files -/ ;;",
        '    *) local -a candidates; candidates=("${(@f)out}"); compadd -- $candidates ;;',
        "  esac",
        "}",
        "compdef _skiff skiff",
        "",
      ].join("\n");
    case "fish":
      return [
        "# skiff completion for fish: skiff completions fish > ~/.config/fish/completions/skiff.fish",
        "function __skiff_complete",
        "    set -l words (commandline -opc) (commandline -ct)",
        `    set -l out (${helper} $words[2..-1] 2>/dev/null)`,
        '    switch "$out[1]"',
        "        case :files :dirs",
        "            __fish_complete_path (commandline -ct)",
        "        case '*'",
        "            printf '%s\\n' $out",
        "    end",
        "end",
        "complete -c skiff -f -a '(__skiff_complete)'",
        "",
      ].join("\n");
  }
}
