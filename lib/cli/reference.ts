/**
 * The command reference in Markdown: every command and subcommand of a
 * command table with its `--help` text exactly as the program prints it, so
 * a page made from it (docs/cli.md) cannot say other than the program does.
 *
 * @module
 */

import { renderHelp, renderRootHelp } from "./help.ts";
import type { CommandEntry, CommandSpec } from "./spec.ts";

/** Options for {@linkcode renderReference}. */
export interface ReferenceOptions {
  /** The page's title (default `Command reference`). */
  title?: string;
  /** Markdown paragraphs put between the title and the commands. */
  intro?: string;
}

/** One command of the reference: its words and its spec. */
interface Visited {
  path: string[];
  spec: CommandSpec;
}

function* visible(spec: CommandSpec, path: string[]): Generator<Visited> {
  yield { path, spec };
  for (const sub of spec.subcommands ?? []) {
    if (!sub.hidden) yield* visible(sub, [...path, sub.name]);
  }
}

/** The anchor GitHub gives a heading made only of letters, digits, spaces and `-`. */
function anchor(heading: string): string {
  return heading.toLowerCase().replaceAll(" ", "-");
}

/** A fence longer than any run of backticks in `text`, so the text never closes it. */
function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * Renders the reference of `entries` as Markdown: the top-level help, then
 * each command (a `##` heading) and subcommand (`###`) with its summary, its
 * aliases and its whole `--help` text in a code block. Hidden commands, which
 * `--help` and completion leave out, are left out too.
 */
export async function renderReference(
  entries: readonly CommandEntry[],
  options: ReferenceOptions = {},
): Promise<string> {
  const shown = entries.filter((entry) => !entry.hidden);
  const commands: Visited[] = [];
  for (const entry of shown) commands.push(...visible(await entry.load(), [entry.name]));
  const lines = [`# ${options.title ?? "Command reference"}`, ""];
  if (options.intro) lines.push(options.intro.trim(), "");
  const root = renderRootHelp(shown);
  lines.push(fence(root) + "text", root, fence(root), "");
  for (const { path, spec } of commands) {
    const heading = `skiff ${path.join(" ")}`;
    const indent = "  ".repeat(path.length - 1);
    lines.push(`${indent}- [\`${heading}\`](#${anchor(heading)}): ${spec.summary}`);
  }
  for (const { path, spec } of commands) {
    const heading = `skiff ${path.join(" ")}`;
    lines.push("", `${path.length === 1 ? "##" : "###"} ${heading}`, "", spec.summary);
    if (spec.aliases?.length) {
      const words = spec.aliases.map((alias) =>
        `\`skiff ${[...path.slice(0, -1), alias].join(" ")}\``
      );
      lines.push("", `Also: ${words.join(", ")}.`);
    }
    const help = renderHelp(spec, path);
    lines.push("", fence(help) + "text", help, fence(help));
  }
  return lines.join("\n") + "\n";
}
