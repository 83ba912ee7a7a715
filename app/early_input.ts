/**
 * What a person types into a pane's terminal before it is attached: the
 * page opens the terminal at once, but the WebSocket still has to open and
 * skiffd has to attach, and only then does the page learn the detach key
 * (`[attach] detach_key`). Nothing typed meanwhile may vanish, and a key
 * that may be the detach key cannot be told from a key for the pane yet:
 * such keys are held as keys, everything else as the bytes the terminal
 * made of it, all in order, and sorted out at the attach.
 *
 * @module
 */

import type { AttachKey } from "../lib/config/attach_keys.ts";

/** A key press as this module needs it (a `KeyboardEvent` is one). */
export interface KeyPress {
  /** The key's value, such as `b`, `\` or `F12`. */
  key: string;
  /** Whether Ctrl was down. */
  ctrlKey: boolean;
  /** Whether Alt was down. */
  altKey: boolean;
  /** Whether Meta was down. */
  metaKey: boolean;
  /** Whether Shift was down. */
  shiftKey: boolean;
}

/** What typing before the attach comes to, once the detach key is known. */
export interface ReleasedInput {
  /** The bytes for the pane, in order. */
  data: Uint8Array[];
  /** Whether the detach key was pressed: what came after it was not for the pane. */
  leave: boolean;
  /** Bytes not held because there were too many. */
  dropped: number;
}

/** At most this much typing is held (a paste included). */
const HOLD_BYTES = 64 * 1024;

/** The bytes of the function keys F1 to F12, as xterm sends them. */
const FUNCTION_KEYS = [
  "\x1bOP",
  "\x1bOQ",
  "\x1bOR",
  "\x1bOS",
  "\x1b[15~",
  "\x1b[17~",
  "\x1b[18~",
  "\x1b[19~",
  "\x1b[20~",
  "\x1b[21~",
  "\x1b[23~",
  "\x1b[24~",
];

/** The control character of Ctrl with `char` (a letter or one of `\ ] ^ _ @`). */
const CTRL_SYMBOLS: Record<string, number> = {
  "\\": 0x1c,
  "]": 0x1d,
  "^": 0x1e,
  "_": 0x1f,
  "@": 0,
};

/** Whether `key` is `attach`: Ctrl with its character and nothing else, or its function key alone. */
export function isAttachKey(key: KeyPress, attach: AttachKey): boolean {
  const others = key.altKey || key.metaKey;
  if ("fn" in attach) return !others && !key.ctrlKey && !key.shiftKey && key.key === attach.name;
  return key.ctrlKey && !others && key.key.toLowerCase() === attach.ctrl;
}

/** The detach key `key` would be, if any setting may name it. */
function possibleDetach(key: KeyPress): AttachKey | undefined {
  if (key.altKey || key.metaKey) return undefined;
  const fn = /^F(\d{1,2})$/.exec(key.key);
  if (fn && !key.ctrlKey && !key.shiftKey && Number(fn[1]) >= 1 && Number(fn[1]) <= 12) {
    return { name: key.key, fn: Number(fn[1]) };
  }
  const char = key.key.toLowerCase();
  // Ctrl+V stays the browser's paste: holding it would take the paste away.
  if (key.ctrlKey && char.length === 1 && char !== "v" && /^[a-z\\\]^_@]$/.test(char)) {
    return { name: `C-${char}`, ctrl: char };
  }
  return undefined;
}

/** The bytes the pane gets for a held key that was not the detach key. */
function bytesOf(key: AttachKey): Uint8Array {
  if ("fn" in key) return new TextEncoder().encode(FUNCTION_KEYS[key.fn - 1]);
  const symbol = CTRL_SYMBOLS[key.ctrl];
  return Uint8Array.of(symbol ?? key.ctrl.toUpperCase().charCodeAt(0) - 64);
}

/** Holds typing until the attach; see the module's documentation. */
export class EarlyInput {
  readonly #items: (Uint8Array | AttachKey)[] = [];
  #bytes = 0;
  #dropped = 0;

  /** Holds `key` if it may be the detach key (the terminal must then not take it). */
  holdKey(key: KeyPress): boolean {
    const possible = possibleDetach(key);
    if (possible) this.#items.push(possible);
    return possible !== undefined;
  }

  /** Holds bytes the terminal made of what was typed or pasted. */
  holdData(data: Uint8Array): void {
    if (this.#bytes + data.length > HOLD_BYTES) {
      this.#dropped += data.length;
      return;
    }
    this.#bytes += data.length;
    this.#items.push(data);
  }

  /** What was held, now that `detach` is known. */
  release(detach: AttachKey): ReleasedInput {
    const data: Uint8Array[] = [];
    for (const item of this.#items) {
      if (item instanceof Uint8Array) {
        data.push(item);
        continue;
      }
      // Both spell a key the same way (`C-b`, `F12`).
      if (item.name === detach.name) return { data, leave: true, dropped: this.#dropped };
      data.push(bytesOf(item));
    }
    return { data, leave: false, dropped: this.#dropped };
  }
}
