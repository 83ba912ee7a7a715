/**
 * What a TOML syntax error likely means. smol-toml's messages name what the
 * parser met (`illegal character in key` for a table header missing its
 * `]`), not what the person got wrong; {@linkcode tomlHint} reads the line
 * at fault and says the likely mistake in the person's terms.
 *
 * @module
 */

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** The text after the first `=` of a `key = value` line, without a trailing comment. */
function valueText(line: string): string | undefined {
  const eq = line.indexOf("=");
  if (eq === -1) return undefined;
  return line.slice(eq + 1).replace(/\s+#.*$/, "").trim();
}

function keyHint(line: string, column: number): string | undefined {
  const trimmed = line.trim();
  if (trimmed.startsWith("[") && !trimmed.includes("]")) {
    return `is the ']' missing? A table header is written [name]`;
  }
  const at = line[column - 1] ?? "";
  if (at === ":") return "a key is set with '=', not ':' (key = value)";
  if (at !== "" && at.charCodeAt(0) > 127) {
    return `a bare key holds only letters A-Z, digits, '_' and '-'; put other keys in quotes ("${
      line.slice(0, line.includes("=") ? line.indexOf("=") : undefined).trim()
    }")`;
  }
  const eq = line.indexOf("=");
  if (eq === -1) return "a key needs '=' and a value (key = value)";
  const key = line.slice(0, eq).trim();
  if (/\s/.test(key) && !/["']/.test(key)) {
    return `a key holds no spaces: write ${key.replace(/\s+/g, "_")}, or put it in quotes`;
  }
  return undefined;
}

function valueHint(line: string): string | undefined {
  const value = valueText(line);
  if (value === undefined) return undefined;
  if (value === "") return "a value is missing after '='";
  if (/^(true|false)$/i.test(value)) return "true and false are written in lower case";
  if (/^(yes|no|on|off)$/i.test(value)) return "use true or false";
  if (/^[^"'[{]/.test(value)) return `text needs quotes: "${value}"`;
  return undefined;
}

function endOfLineHint(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("[")) return "only a # comment may follow a table header on its line";
  const value = valueText(line) ?? "";
  if (/^'[^']*'[^']*'/.test(value)) {
    return `a '…' string ends at the next ': use "…" for text that holds '`;
  }
  if (/^"(?:[^"\\]|\\.)*"[^"]*"/.test(value)) {
    return `a "…" string ends at the next ": write \\" inside it, or use '…'`;
  }
  return "one key = value a line; only a # comment may follow the value";
}

function redefinedHint(line: string): string {
  const trimmed = line.trim();
  const header = /^\[\[?\s*([^\]]+?)\s*\]/.exec(trimmed);
  if (header) return `[${header[1]}] is defined twice, or a key above defined it; keep one`;
  const eq = trimmed.indexOf("=");
  const key = eq === -1 ? trimmed : trimmed.slice(0, eq).trim();
  return BARE_KEY.test(key) || /^["']/.test(key)
    ? `${key} is set twice in this table; keep one`
    : "a key is set twice in this table; keep one";
}

/**
 * A short phrase that says what is likely wrong, for a smol-toml `message`
 * (its first line, without the `Invalid TOML document: ` prefix) about
 * `line` (the text of the line at fault) at 1-based `column`; `undefined`
 * when the message says enough.
 */
export function tomlHint(message: string, line: string, column: number): string | undefined {
  switch (message) {
    case "illegal character in key":
      return keyHint(line, column);
    case "control characters are not allowed in strings":
      return column > line.length
        ? `the string is not closed on its line: add the closing quote (""" … """ for text over several lines)`
        : undefined;
    case "invalid value":
      return valueHint(line);
    case "each key-value declaration must be followed by an end-of-line":
      return endOfLineHint(line);
    case "unrecognised escape sequence":
      return `a \\ in "…" starts an escape: write \\\\, or use '…', which has none (handy for paths)`;
    case "trying to redefine an already defined table or value":
      return redefinedHint(line);
    case "expected comma or end of structure":
      return "a list or { } table is not closed: is a ']' or '}' missing, or a ',' between items?";
    case "expected end of table array declaration":
      return "a table array header is written [[name]]";
    case "unexpected end of key":
      return "a table or key name is missing, or ends with '.'";
    default:
      return undefined;
  }
}
