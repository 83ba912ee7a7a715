/**
 * Finding a switch between the normal and the alternate screen (DECSET
 * 47, 1047 or 1049, set or reset) in a pane's output. An attached terminal
 * must never switch its own screen for the pane's program: it would show
 * what it had before the switch, not what the pane shows. The pane sends a
 * redraw of its screen in place of such a switch. A serialized screen
 * switches too, when the alternate screen shows: where is found here.
 *
 * @module
 */

const SWITCHES = new Set([47, 1047, 1049]);

/**
 * The index where the first screen switch starts in `data`, or -1. `data` is
 * whole escape sequences (the query filter holds a sequence cut at a chunk's
 * end until the rest comes).
 */
export function findScreenSwitch(data: Uint8Array): number {
  for (let i = data.indexOf(0x1b); i !== -1 && i < data.length - 3; i = data.indexOf(0x1b, i + 1)) {
    if (data[i + 1] !== 0x5b || data[i + 2] !== 0x3f) continue; // ESC [ ?
    let j = i + 3;
    const params: number[] = [];
    let number = 0;
    let digits = 0;
    for (; j < data.length; j++) {
      const byte = data[j];
      if (byte >= 0x30 && byte <= 0x39) {
        number = number * 10 + byte - 0x30;
        digits++;
      } else if (byte === 0x3b) {
        params.push(number);
        number = 0;
        digits = 0;
      } else {
        break;
      }
    }
    if (digits > 0) params.push(number);
    const final = data[j];
    if ((final === 0x68 || final === 0x6c) && params.some((p) => SWITCHES.has(p))) return i;
  }
  return -1;
}

/** How the serializer switches to the alternate screen, when that screen shows. */
const TO_ALTERNATE = "\x1b[?1049h\x1b[H";

/**
 * Where the alternate screen's part of a serialized screen starts: the
 * index of the switch to it and the index just after the switch, or
 * `undefined` when the normal screen shows (nothing switches).
 */
export function alternatePart(serialized: string): { at: number; after: number } | undefined {
  const at = serialized.lastIndexOf(TO_ALTERNATE);
  return at === -1 ? undefined : { at, after: at + TO_ALTERNATE.length };
}
