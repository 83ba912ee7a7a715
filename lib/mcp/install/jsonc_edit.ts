/**
 * Setting and removing one entry of a JSON (or JSON with comments) file in
 * place: every other byte stays as the person wrote it, comments and
 * layout included. The new entry is laid out as the object around it is
 * (its indent, two more spaces a level).
 *
 * @module
 */

import { findNodeAtLocation, type Node, type ParseError, parseTree } from "jsonc-parser";
import { SkiffError } from "../../errors.ts";

/** A value an entry may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | {
  [key: string]: JsonValue;
};

/** Parses `text` (JSON with comments and trailing commas) into its tree; `DATA` when it is broken. */
function tree(text: string, file: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || (root && root.type !== "object")) {
    const offset = errors[0]?.offset ?? 0;
    const line = text.slice(0, offset).split("\n").length;
    throw new SkiffError(
      `${file}:${line}: not a JSON object Skiff can edit; fix it or add Skiff by hand (see 'skiff mcp install --print')`,
      { exit: "DATA", details: { file } },
    );
  }
  return root;
}

/** The spaces that start the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** `value` as JSON laid out under `indent`. */
function layout(value: JsonValue, indent: string): string {
  return JSON.stringify(value, null, 2).split("\n").join(`\n${indent}`);
}

/** The value at `path` in `text`, or undefined (the text must parse). */
export function valueAt(text: string, path: string[], file: string): unknown {
  if (text.trim() === "") return undefined;
  const root = tree(text, file);
  const node = root && findNodeAtLocation(root, path);
  if (!node) return undefined;
  return JSON.parse(text.slice(node.offset, node.offset + node.length).replace(/^$/, "null"));
}

/**
 * Inserts `key: value` as the last property of object node `object`: after
 * its last property (and any comment after it), a comma added after that
 * property's value when it has none.
 */
function insertProperty(text: string, object: Node, key: string, value: JsonValue): string {
  const open = object.offset;
  const close = object.offset + object.length - 1;
  const props = object.children ?? [];
  const outer = indentAt(text, open);
  if (props.length === 0) {
    let end = close;
    while (end > open + 1 && /\s/.test(text[end - 1])) end--;
    if (end === open + 1) {
      const inner = `${outer}  `;
      return `${text.slice(0, open + 1)}\n${inner}${JSON.stringify(key)}: ${
        layout(value, inner)
      }\n${outer}${text.slice(close)}`;
    }
    // Only comments inside: they stay, and the entry goes after them, at their indent.
    const first = open + 1 +
      (text.slice(open + 1).length - text.slice(open + 1).trimStart().length);
    const ownLine = /^[ \t]*$/.test(text.slice(text.lastIndexOf("\n", first - 1) + 1, first));
    const inner = ownLine ? indentAt(text, first) : `${outer}  `;
    const tail = /\n/.test(text.slice(end, close))
      ? text.slice(end)
      : `\n${outer}${text.slice(close)}`;
    return `${text.slice(0, end)}\n${inner}${JSON.stringify(key)}: ${layout(value, inner)}${tail}`;
  }
  const last = props[props.length - 1];
  const lastEnd = last.offset + last.length;
  const inner = indentAt(text, last.offset);
  // Where the object's content ends: before the spaces and newline ahead of its closing brace.
  let end = close;
  while (end > lastEnd && /\s/.test(text[end - 1])) end--;
  const between = text.slice(lastEnd, end);
  // A file that ends its properties with a comma gets one after the new one too.
  const hasComma = /^\s*,/.test(between);
  const entry = `\n${inner}${JSON.stringify(key)}: ${layout(value, inner)}${hasComma ? "," : ""}`;
  return text.slice(0, lastEnd) + (hasComma ? "" : ",") + between + entry + text.slice(end);
}

/** The text with `value` set at `path` (each part a key of an object), made as needed. */
export function setEntry(text: string, path: string[], value: JsonValue, file: string): string {
  if (text.trim() === "") {
    let nested: JsonValue = value;
    for (const key of [...path].reverse()) nested = { [key]: nested };
    return JSON.stringify(nested, null, 2) + "\n";
  }
  const root = tree(text, file)!;
  const node = findNodeAtLocation(root, path);
  if (node) {
    const indent = indentAt(text, node.parent?.offset ?? node.offset);
    return text.slice(0, node.offset) + layout(value, indent) +
      text.slice(node.offset + node.length);
  }
  // The deepest object on the way that exists gets the rest of the path, as one value.
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const holder = depth === 0 ? root : findNodeAtLocation(root, path.slice(0, depth));
    if (!holder) continue;
    if (holder.type !== "object") {
      throw new SkiffError(`${file}: '${path.slice(0, depth).join(".")}' is not an object`, {
        exit: "DATA",
        details: { file },
      });
    }
    let rest: JsonValue = value;
    for (const key of path.slice(depth + 1).reverse()) rest = { [key]: rest };
    return insertProperty(text, holder, path[depth], rest);
  }
  return text;
}

/**
 * How many keys of `path`, from the top, lead to an object in `text`: 0
 * when not even the first does (or the text is empty).
 */
export function existingDepth(text: string, path: string[], file: string): number {
  if (text.trim() === "") return 0;
  const root = tree(text, file)!;
  let depth = 0;
  while (depth < path.length) {
    const node = findNodeAtLocation(root, path.slice(0, depth + 1));
    if (!node || node.type !== "object") break;
    depth++;
  }
  return depth;
}

/**
 * Whether the value at `path` (the whole document for `[]`) is an object
 * that holds nothing: no property, and nothing but blanks between its
 * braces (a comment is the person's).
 */
export function bareObjectAt(text: string, path: string[], file: string): boolean {
  if (text.trim() === "") return false;
  const root = tree(text, file)!;
  const node = path.length === 0 ? root : findNodeAtLocation(root, path);
  if (!node || node.type !== "object" || (node.children ?? []).length > 0) return false;
  return text.slice(node.offset + 1, node.offset + node.length - 1).trim() === "";
}

/**
 * The text without the property at `path`: its lines go, and the comma
 * before it when it was the last property, so the rest stays as it was.
 * The only property of an object leaves the object's comments; an object
 * left with nothing but blanks is written `{}`.
 */
export function removeEntry(text: string, path: string[], file: string): string {
  if (text.trim() === "") return text;
  const root = tree(text, file)!;
  const value = findNodeAtLocation(root, path);
  const property = value?.parent;
  if (!value || !property || property.type !== "property") return text;
  const object = property.parent!;
  const props = object.children ?? [];
  const index = props.indexOf(property);
  const open = object.offset;
  let close = object.offset + object.length - 1;
  let start = property.offset;
  let end = property.offset + property.length;
  const after = /^[ \t]*,/.exec(text.slice(end));
  if (after) end += after[0].length;
  else if (index > 0) {
    // The last one: the comma after the one before it goes too (when there is one).
    const previous = props[index - 1];
    const prevEnd = previous.offset + previous.length;
    const comma = /^[ \t]*,/.exec(text.slice(prevEnd));
    if (comma && prevEnd + comma[0].length <= start) {
      text = text.slice(0, prevEnd) + text.slice(prevEnd + comma[0].length);
      start -= comma[0].length;
      end -= comma[0].length;
      close -= comma[0].length;
    }
  }
  // Whole lines when the property had its lines to itself.
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const rest = /^[ \t]*(\r?\n|$)/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && rest) {
    start = lineStart > 0 ? lineStart - 1 : 0;
    end += rest[0].length - rest[1].length;
  }
  const out = text.slice(0, start) + text.slice(end);
  close -= end - start;
  // Nothing left between the braces but blanks: `{}`, as the object would have been written.
  if (props.length === 1 && out.slice(open + 1, close).trim() === "") {
    return out.slice(0, open + 1) + out.slice(close);
  }
  return out;
}
