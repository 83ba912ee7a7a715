/**
 * Scrolling without garbage. Once a terminal's scrollback is full, xterm
 * reuses the line that drops off the top for the new one at the bottom
 * (`BufferLine.copyFrom`), and a cleared line is filled in place
 * (`BufferLine.fill`). Both give the line two new empty objects (for
 * combined characters and extended attributes) even when the old ones are
 * empty. The line is old, so the new objects outlive the young generation's
 * collections and die in the old one: under a flood, most of skiffd's time
 * went to collecting them (about 60% of a flood's wall time with 50 busy
 * panes of 10,000 lines). The versions here keep an empty object that is
 * empty anyway and do the rest as xterm does.
 *
 * They replace methods on xterm's private line class, so they are written
 * against the pinned version (6.0.0), check every field and method they
 * touch, and change nothing when one is missing;
 * `tests/unit/screen/line_recycling.test.ts` fails if one goes.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import { normalLineRing } from "./xterm_memory.ts";

/** The parts of xterm's private line used here. */
interface CoreLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  length: number;
  isWrapped: boolean;
  setCell(index: number, cell: unknown): void;
}

/** The methods replaced on the line class. */
interface LineMethods {
  copyFrom(this: CoreLine, source: CoreLine): void;
  fill(this: CoreLine, cell: unknown, respectProtect?: boolean): void;
}

/** Line classes whose methods were replaced already (one in practice). */
const recycling = new WeakSet<object>();

function isEmpty(map: object): boolean {
  for (const _ in map) return false;
  return true;
}

function isCoreLine(line: unknown): line is CoreLine {
  const candidate = line as Partial<CoreLine> | undefined;
  return candidate?._data instanceof Uint32Array &&
    typeof candidate._combined === "object" && candidate._combined !== null &&
    typeof candidate._extendedAttrs === "object" && candidate._extendedAttrs !== null &&
    typeof candidate.length === "number" && typeof candidate.isWrapped === "boolean" &&
    typeof candidate.setCell === "function";
}

/**
 * Makes the line class behind `term` reuse empty objects when it copies or
 * fills a line (for every terminal: the class is shared). Returns whether
 * the class recycles that way now; false when a field or method is missing.
 */
export function recycleLinesWithoutGarbage(term: Terminal): boolean {
  const line = normalLineRing(term)?.get(0);
  if (!isCoreLine(line)) return false;
  const methods = Object.getPrototypeOf(line) as Partial<LineMethods>;
  if (recycling.has(methods)) return true;
  const { copyFrom, fill } = methods;
  if (typeof copyFrom !== "function" || typeof fill !== "function") return false;
  methods.copyFrom = function (this: CoreLine, source: CoreLine): void {
    if (
      !isEmpty(this._combined) || !isEmpty(this._extendedAttrs) ||
      !isEmpty(source._combined) || !isEmpty(source._extendedAttrs)
    ) {
      return copyFrom.call(this, source);
    }
    if (this.length !== source.length) this._data = new Uint32Array(source._data);
    else this._data.set(source._data);
    this.length = source.length;
    this.isWrapped = source.isWrapped;
  };
  methods.fill = function (this: CoreLine, cell: unknown, respectProtect = false): void {
    if (respectProtect || !isEmpty(this._combined) || !isEmpty(this._extendedAttrs)) {
      return fill.call(this, cell, respectProtect);
    }
    for (let x = 0; x < this.length; x++) this.setCell(x, cell);
  };
  recycling.add(methods);
  return true;
}
