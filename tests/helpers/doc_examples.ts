/**
 * The `skiff …` command lines of the docs' shell examples, and their check
 * against the real command table with the CLI's own parser (nothing is run).
 *
 * A shell example is a fenced code block whose language is `sh`, `bash`,
 * `shell`, `zsh` or `console`. In a `console` block only lines after a `$ `
 * prompt are commands (the rest is output); elsewhere a `$ ` prompt is
 * dropped. A line ending in `\` goes on on the next line. Each line is split
 * as a shell splits it, enough for examples: quotes, `#` comments, `|`,
 * `||`, `&&`, `;` and `&` between commands, redirections (`< file`, `2>&1`),
 * `VAR=value` before a command, and `$(…)` and `<(…)`, whose commands are
 * checked too.
 *
 * @module
 */

import { GLOBAL_OPTIONS, parse } from "../../lib/cli/parse.ts";
import type { CommandEntry } from "../../lib/cli/spec.ts";

/** One `skiff` command line found in a doc. */
export interface DocCommand {
  /** The doc's name, as the failure names it. */
  file: string;
  /** The line the command starts on, from 1. */
  line: number;
  /** The words after `skiff`. */
  argv: string[];
  /** The command as written, for the failure line. */
  text: string;
}

const SHELLS = new Set(["sh", "bash", "shell", "zsh", "console"]);

/** The programs that are Skiff: `skiff`, the checkout's `./skiff`, and `npx @skiff/skiff`. */
function skiffArgs(words: string[]): string[] | undefined {
  if (words[0] === "skiff" || words[0] === "./skiff") return words.slice(1);
  if (words[0] === "npx" && words[1] === "@skiff/skiff") return words.slice(2);
  return undefined;
}

/** The text from `open` (just after `(`) to its matching `)`, quotes respected. */
function closing(text: string, open: number): number {
  let depth = 1;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = "";
      else if (ch === "\\" && quote === '"') i++;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\") i++;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  throw new Error(`no ')' closes '(' in: ${text}`);
}

/**
 * Splits one shell line into simple commands (lists of words), with the
 * commands of each `$(…)` and `<(…)` in it after them. A substitution
 * stands in its word as `X`, as a value would.
 */
export function shellCommands(text: string): string[][] {
  const commands: string[][] = [];
  const inner: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let redirect = false;
  const endWord = () => {
    if (word === undefined) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift();
    if (words.length) commands.push(words);
    words = [];
  };
  const substitution = (open: number): number => {
    const end = closing(text, open);
    inner.push(...shellCommands(text.slice(open, end)));
    word = (word ?? "") + "X";
    return end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error(`no closing ' in: ${text}`);
      word = (word ?? "") + text.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      word ??= "";
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\" && i + 1 < text.length) word += text[++i];
        else if (text.startsWith("$(", i)) i = substitution(i + 2);
        else word += text[i];
      }
      if (i >= text.length) throw new Error(`no closing " in: ${text}`);
    } else if (ch === "\\") {
      word = (word ?? "") + (text[i + 1] ?? "");
      i++;
    } else if (text.startsWith("$(", i)) {
      i = substitution(i + 2);
    } else if (text.startsWith("<(", i)) {
      endWord();
      i = substitution(i + 2);
    } else if (ch === "#" && word === undefined) {
      break;
    } else if (ch === " " || ch === "\t") {
      endWord();
    } else if (ch === "|" || ch === ";" || ch === "&") {
      // `2>&1` and `&>` are redirections; `&&`, `||`, `|`, `;` and `&` end a command.
      if (ch === "&" && text[i + 1] === ">") {
        endWord();
        redirect = true;
        i += text[i + 2] === ">" ? 2 : 1;
        continue;
      }
      endCommand();
      if (text[i + 1] === ch) i++;
    } else if (ch === ">" || ch === "<") {
      // A file descriptor written before it (`2>`) is part of the redirection.
      if (word !== undefined && /^\d+$/.test(word)) word = undefined;
      endWord();
      if (text[i + 1] === ">" || text[i + 1] === "&") i++;
      if (text[i] === "&" && /\d/.test(text[i + 1] ?? "")) {
        i++;
        continue;
      }
      redirect = true;
    } else {
      word = (word ?? "") + ch;
    }
  }
  endCommand();
  return [...commands, ...inner];
}

/** One command of a doc's shell examples, whatever its program. */
export interface ShellLine {
  /** The doc's name, as the failure names it. */
  file: string;
  /** The line the command starts on, from 1. */
  line: number;
  /** Its words, the program first. */
  words: string[];
}

/** Every command in the shell examples of `markdown`, a doc named `file`. */
export function shellLines(markdown: string, file: string): ShellLine[] {
  const found: ShellLine[] = [];
  const lines = markdown.split("\n");
  let fence: { marker: string; shell: boolean; console: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const marker = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (!fence) {
      if (marker) {
        const lang = marker[2].toLowerCase();
        fence = { marker: marker[1], shell: SHELLS.has(lang), console: lang === "console" };
      }
      continue;
    }
    if (line.startsWith(fence.marker) && line.slice(fence.marker.length).trim() === "") {
      fence = undefined;
      continue;
    }
    if (!fence.shell) continue;
    const prompt = line.startsWith("$ ") || line === "$";
    if (fence.console && !prompt) continue;
    const start = i;
    let text = prompt ? line.slice(1).trim() : line;
    while (text.endsWith("\\") && i + 1 < lines.length) {
      text = text.slice(0, -1) + lines[++i].trim();
    }
    for (const words of shellCommands(text)) found.push({ file, line: start + 1, words });
  }
  if (fence) throw new Error(`${file}: a code block is never closed`);
  return found;
}

/** The command `words` as a {@linkcode DocCommand}, when its program is Skiff. */
function skiffCommand(words: string[], file: string, line: number): DocCommand[] {
  const argv = skiffArgs(words);
  return argv ? [{ file, line, argv, text: words.join(" ") }] : [];
}

/** Every `skiff` command line in the shell examples of `markdown`, a doc named `file`. */
export function docCommands(markdown: string, file: string): DocCommand[] {
  return shellLines(markdown, file).flatMap(({ line, words }) => skiffCommand(words, file, line));
}

/**
 * The `skiff` command lines of one example of a command's spec (its
 * `examples:`, which `--help` and docs/cli.md print), read as a line of a
 * doc's shell block is; `where` names it in a failure.
 */
export function exampleCommands(example: string, where: string): DocCommand[] {
  return shellCommands(example).flatMap((words) => skiffCommand(words, where, 1));
}

const GLOBAL_FLAGS = new Set(["--json", "--help", "-h"]);

/**
 * Checks one command line against `entries` as `skiff` would read it, and
 * returns the usage error it would get, or undefined when it parses.
 */
export async function checkCommand(
  entries: readonly CommandEntry[],
  argv: readonly string[],
): Promise<string | undefined> {
  let lead = 0;
  while (GLOBAL_FLAGS.has(argv[lead])) lead++;
  let words = argv.slice(lead);
  if (words[0] === "help") words = [...words.slice(1), "--help"];
  const first = words[0];
  // `skiff` alone opens the dashboard (or prints the help); `--version` is the program's own.
  if (first === undefined || first === "--help") return undefined;
  if (first === "--version" || first === "-V") {
    const extra = words.slice(1).filter((w) => !GLOBAL_OPTIONS.some((o) => `--${o.name}` === w));
    return extra.length ? `Unknown option '${extra[0]}' after --version` : undefined;
  }
  if (first.startsWith("-")) return `Unknown option '${first}' before the command`;
  const entry = entries.find((e) => e.name === first || e.aliases?.includes(first));
  if (!entry) return `Unknown command '${first}'`;
  try {
    const spec = await entry.load();
    // As `skiff` does, flags before the command go right after the command's word.
    const parsed = parse(spec, [...argv.slice(0, lead), ...words.slice(1)], {
      prefix: [spec.name],
    });
    // A group named without one of its commands only prints its help.
    if (!parsed.command.run && !parsed.opts.help) {
      return `'skiff ${[spec.name, ...parsed.path].join(" ")}' needs a command`;
    }
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
