/**
 * The standard xterm 256-colour palette, for answering OSC 4 queries.
 *
 * @module
 */

const BASE16 = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];

function rgbOf(index: number): number[] {
  if (index < 16) return BASE16[index];
  if (index < 232) {
    const n = index - 16;
    const level = (v: number) => v === 0 ? 0 : 55 + v * 40;
    return [level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6)];
  }
  const grey = 8 + (index - 232) * 10;
  return [grey, grey, grey];
}

/** Returns palette entry `index` (0–255) in the `rgb:rrrr/gggg/bbbb` form of OSC answers. */
export function paletteColor(index: number): string {
  const hex = (v: number) => v.toString(16).padStart(2, "0").repeat(2);
  const [r, g, b] = rgbOf(index);
  return `rgb:${hex(r)}/${hex(g)}/${hex(b)}`;
}
