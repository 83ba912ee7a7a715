/**
 * Line-level edits of a TOML document that keep everything else as the user
 * wrote it: comments, blank lines, key order and quoting.
 *
 * Only two shapes are edited: `[a.b]` tables with `key = value` lines. Every
 * edit is checked by parsing the result, so a bad edit never reaches disk.
 *
 * @module
 */

import { parse } from "smol-toml";
import { SkiffError } from "../errors.ts";

/** A value Skiff writes into TOML. */
export type TomlValue = string | number | boolean | string[];

/** Formats a value as TOML. */
export function tomlValue(value: TomlValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  return String(value);
}

/** Formats a dotted table path, quoting parts that are not bare keys. */
export function tablePath(parts: string[]): string {
  return parts.map((p) => /^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p)).join(".");
}

interface Header {
  /** The line index. */
  line: number;
  /** The normalised table path, or `undefined` for a line that is not a header. */
  path: string;
}

function normalisePath(raw: string): string {
  const parts: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(\.|$)/y;
  let match: RegExpExecArray | null;
  while ((match = re.exec(raw)) !== null) {
    const token = match[1];
    parts.push(
      token.startsWith('"')
        ? JSON.parse(token)
        : token.startsWith("'")
        ? token.slice(1, -1)
        : token,
    );
    if (match[2] === "") break;
  }
  return tablePath(parts);
}

function headers(lines: string[]): Header[] {
  const found: Header[] = [];
  let inMultiline = false;
  lines.forEach((text, line) => {
    const quotes = (text.match(/"""|'''/g) ?? []).length;
    if (!inMultiline) {
      const match = /^\s*\[(?!\[)([^\]]+)\]\s*(#.*)?$/.exec(text) ??
        /^\s*\[\[([^\]]+)\]\]\s*(#.*)?$/.exec(text);
      if (match) found.push({ line, path: normalisePath(match[1]) });
    }
    if (quotes % 2 === 1) inMultiline = !inMultiline;
  });
  return found;
}

/** Returns the line range `[start, end)` of table `path` (header included), or `undefined`. */
function tableRange(lines: string[], path: string): [number, number] | undefined {
  const all = headers(lines);
  const index = all.findIndex((h) => h.path === path);
  if (index === -1) return undefined;
  const next = all[index + 1];
  return [all[index].line, next ? next.line : lines.length];
}

/** Returns the trailing comment of a `key = value` line (with the blanks before it), or "". */
export function trailingComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === "#") {
      let from = i;
      while (from > 0 && /\s/.test(line[from - 1])) from--;
      return line.slice(from);
    }
  }
  return "";
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function checked(text: string): string {
  try {
    parse(text);
  } catch (error) {
    throw new SkiffError(
      `Could not edit the config safely: ${(error as Error).message.split("\n")[0]}`,
      { exit: "DATA" },
    );
  }
  return text;
}

/**
 * Sets `key = value` pairs in table `path` (such as `projects.web`), adding the
 * table at the end when it is missing. A `null` value removes the key.
 */
export function setTableKeys(
  text: string,
  path: string[],
  entries: Record<string, TomlValue | null>,
): string {
  const name = tablePath(path);
  const lines = text.split("\n");
  const range = tableRange(lines, name);
  if (!range) {
    const added = Object.entries(entries).filter(([, v]) => v !== null)
      .map(([k, v]) => `${tablePath([k])} = ${tomlValue(v as TomlValue)}`);
    const base = text.replace(/\n*$/, "");
    const block = [`[${name}]`, ...added].join("\n");
    return checked(base === "" ? `${block}\n` : `${base}\n\n${block}\n`);
  }
  let [start, end] = range;
  for (const [key, value] of Object.entries(entries)) {
    const k = escapeRegExp(key);
    const keyRe = new RegExp(`^\\s*("${k}"|'${k}'|${k})\\s*=`);
    const at = lines.slice(start + 1, end).findIndex((l) => keyRe.test(l));
    if (at !== -1) {
      if (value === null) {
        lines.splice(start + 1 + at, 1);
        end--;
      } else {
        const old = lines[start + 1 + at];
        const comment = trailingComment(old);
        lines[start + 1 + at] = `${tablePath([key])} = ${tomlValue(value)}${comment}`;
      }
      continue;
    }
    if (value === null) continue;
    // Insert after the table's last key: blank lines and the comments that
    // introduce the next table stay where they are.
    let insertAt = end;
    while (insertAt > start + 1 && /^\s*(#.*)?$/.test(lines[insertAt - 1])) insertAt--;
    lines.splice(insertAt, 0, `${tablePath([key])} = ${tomlValue(value)}`);
    end++;
  }
  return checked(lines.join("\n"));
}

/** Options for {@linkcode removeTable}. */
export interface RemoveTableOptions {
  /**
   * Remove only the table itself: its header, its keys and what lies
   * between them. The comment lines above its header and the blank and
   * comment lines after its last key stay, for they may be about something
   * else (a table a program wrote is removed this way: it wrote no comments).
   * By default the comment lines directly above the header go with it.
   */
  keepComments?: boolean;
}

/**
 * Removes table `path` and its sub-tables, with the comment lines directly
 * above it (unless `keepComments`). Returns the text unchanged when the
 * table is not there.
 */
export function removeTable(
  text: string,
  path: string[],
  options: RemoveTableOptions = {},
): string {
  const name = tablePath(path);
  let lines = text.split("\n");
  for (;;) {
    const all = headers(lines);
    const index = all.findIndex((h) => h.path === name || h.path.startsWith(`${name}.`));
    if (index === -1) break;
    let start = all[index].line;
    let end = all[index + 1]?.line ?? lines.length;
    if (options.keepComments) {
      // The table ends at its last key: what follows introduces the next table, or ends the file.
      while (end > start + 1 && /^\s*(#.*)?\s*$/.test(lines[end - 1])) end--;
    } else {
      while (start > 0 && /^\s*#/.test(lines[start - 1])) start--;
      // The comment lines directly above the next header are that table's, by the same rule.
      if (end < lines.length) { while (end > start + 1 && /^\s*#/.test(lines[end - 1])) end--; }
    }
    lines = [...lines.slice(0, start), ...lines.slice(end)];
    // Drop one blank line where the cut leaves two in a row, or a blank tail.
    while (start > 0 && lines[start - 1].trim() === "" && (lines[start] ?? "").trim() === "") {
      lines.splice(start - 1, 1);
      start--;
    }
  }
  let out = lines.join("\n");
  if (text.endsWith("\n") && out !== "" && !out.endsWith("\n")) out += "\n";
  return checked(out);
}

/** Whether table `path` is written as a `[header]` in the text. */
export function hasTable(text: string, path: string[]): boolean {
  return tableRange(text.split("\n"), tablePath(path)) !== undefined;
}
