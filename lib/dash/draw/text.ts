/**
 * Text in terminal cells: the width a string takes, and cutting or padding
 * it to a number of cells. Wide characters (CJK, most emoji) take two
 * cells, combining marks none; SGR codes take none.
 *
 * @module
 */

/** Whether code point `c` takes no cell (a combining mark, a zero-width joiner). */
function zeroWidth(c: number): boolean {
  return (c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || c === 0xfe0f ||
    (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0x20d0 && c <= 0x20ff);
}

/** Whether code point `c` takes two cells. */
function wide(c: number): boolean {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
}

/** The cells code point `c` takes: 0, 1 or 2. */
export function charWidth(c: number): number {
  if (c < 0x300) return c < 0x20 || (c >= 0x7f && c < 0xa0) ? 0 : 1;
  if (zeroWidth(c)) return 0;
  return wide(c) ? 2 : 1;
}

// deno-lint-ignore no-control-regex
const PLAIN = /^[\x20-\x7e]*$/;

/** The cells `text` takes (plain text: no escape codes). */
export function textWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0)!);
  return width;
}

/**
 * `text` cut to at most `width` cells, with `…` at the end when it was cut;
 * control characters become spaces.
 */
export function clip(text: string, width: number): string {
  if (width <= 0) return "";
  if (PLAIN.test(text)) {
    return text.length <= width ? text : text.slice(0, Math.max(0, width - 1)) + "…";
  }
  const clean = text.replace(/[\x00-\x1f\x7f]/g, " ");
  if (textWidth(clean) <= width) return clean;
  let out = "";
  let used = 0;
  for (const char of clean) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + "…";
}

/** `text` cut to `width` cells and padded with spaces to exactly `width`. */
export function fit(text: string, width: number): string {
  const cut = clip(text, width);
  return cut + " ".repeat(Math.max(0, width - textWidth(cut)));
}

/** `text` padded on the left to `width` cells (cut when longer). */
export function fitRight(text: string, width: number): string {
  const cut = clip(text, width);
  return " ".repeat(Math.max(0, width - textWidth(cut))) + cut;
}

/** The clock's units for ages: each age changes on its unit's boundary of the wall clock. */
const UNITS = [
  { ms: 1000, suffix: "s", below: 60 },
  { ms: 60_000, suffix: "m", below: 60 },
  { ms: 3_600_000, suffix: "h", below: 24 },
  { ms: 86_400_000, suffix: "d", below: Infinity },
] as const;

/** The unit an age is told in, and how many of it, or undefined for a time that is not one. */
function age(
  since: string,
  now: number,
): { count: number; unit: typeof UNITS[number] } | undefined {
  const at = Date.parse(since);
  if (Number.isNaN(at)) return undefined;
  for (const unit of UNITS) {
    // Whole units of the wall clock between the two: every age on the screen changes at the
    // same moment (a second's, a minute's turn), so a list of ages redraws once, not once each.
    const count = Math.max(0, Math.floor(now / unit.ms) - Math.floor(at / unit.ms));
    if (count < unit.below) return { count: unit.ms === 1000 ? count : Math.max(1, count), unit };
  }
  return undefined;
}

/** How long ago `since` (ISO 8601) was, at `now` (ms): `12s`, `5m`, `3h`, `2d`. */
export function ago(since: string, now: number): string {
  const found = age(since, now);
  return found ? `${found.count}${found.unit.suffix}` : "";
}

/** When `ago(since, …)` may next read differently, in ms after `now`: its unit's next turn. */
export function agoChangesIn(since: string, now: number): number {
  const found = age(since, now);
  if (!found) return Infinity;
  return found.unit.ms - (now % found.unit.ms);
}
