import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { paletteColor } from "../../../lib/screen/palette.ts";

/** `#rrggbb` in the OSC answer form `rgb:rrrr/gggg/bbbb`. */
function osc(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => hex.slice(i, i + 2).repeat(2));
  return `rgb:${r}/${g}/${b}`;
}

Deno.test("paletteColor: the 16 base colours are xterm's defaults", () => {
  const xterm = [
    "#000000",
    "#cd0000",
    "#00cd00",
    "#cdcd00",
    "#0000ee",
    "#cd00cd",
    "#00cdcd",
    "#e5e5e5",
    "#7f7f7f",
    "#ff0000",
    "#00ff00",
    "#ffff00",
    "#5c5cff",
    "#ff00ff",
    "#00ffff",
    "#ffffff",
  ];
  xterm.forEach((hex, i) => assertEquals(paletteColor(i), osc(hex), `colour ${i}`));
});

Deno.test("paletteColor: the 6×6×6 cube, spot checks against xterm's table", () => {
  const known: Record<number, string> = {
    16: "#000000",
    17: "#00005f",
    21: "#0000ff",
    22: "#005f00",
    46: "#00ff00",
    52: "#5f0000",
    88: "#870000",
    124: "#af0000",
    160: "#d70000",
    196: "#ff0000",
    202: "#ff5f00",
    208: "#ff8700",
    214: "#ffaf00",
    220: "#ffd700",
    226: "#ffff00",
    231: "#ffffff",
    67: "#5f87af",
    139: "#af87af",
  };
  for (const [index, hex] of Object.entries(known)) {
    assertEquals(paletteColor(Number(index)), osc(hex), `colour ${index}`);
  }
});

Deno.test("paletteColor: the cube follows the 0,95,135,175,215,255 levels everywhere", () => {
  const levels = [0, 95, 135, 175, 215, 255];
  const hex = (v: number) => v.toString(16).padStart(2, "0");
  for (let r = 0; r < 6; r++) {
    for (let g = 0; g < 6; g++) {
      for (let b = 0; b < 6; b++) {
        const index = 16 + 36 * r + 6 * g + b;
        const expected = osc(`#${hex(levels[r])}${hex(levels[g])}${hex(levels[b])}`);
        assertEquals(paletteColor(index), expected, `colour ${index}`);
      }
    }
  }
});

Deno.test("paletteColor: the grey ramp from 232 to 255", () => {
  assertEquals(paletteColor(232), osc("#080808"));
  assertEquals(paletteColor(233), osc("#121212"));
  assertEquals(paletteColor(244), osc("#808080"));
  assertEquals(paletteColor(255), osc("#eeeeee"));
});

Deno.test("paletteColor: every entry has the OSC answer form", () => {
  for (let i = 0; i < 256; i++) {
    assertMatch(paletteColor(i), /^rgb:([0-9a-f]{2})\1\/([0-9a-f]{2})\2\/([0-9a-f]{2})\3$/);
  }
});
