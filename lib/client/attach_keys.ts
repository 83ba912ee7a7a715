/**
 * Finding the keys an attached terminal keeps for itself (detach, history)
 * in what the person types, in every encoding a terminal may send them:
 * the plain control byte, the kitty keyboard protocol (`CSI 92;5u`, with
 * event types and alternate keys) and xterm's modifyOtherKeys
 * (`CSI 27;5;92~`), which programs in the pane may turn on.
 *
 * @module
 */

import type { AttachKey } from "../config/attach_keys.ts";

/** What a kept key asks for. */
export type KeyAction = "detach" | "history";

/** A kept key found in typed bytes. */
export interface FoundKey {
  /** What it asks for. */
  action: KeyAction;
  /** Its first byte. */
  at: number;
  /** How many bytes it takes. */
  length: number;
  /**
   * Whether it is a press; a release or a repeat (kitty's event types) is
   * swallowed and does nothing.
   */
  press: boolean;
}

const F_TILDE: Record<number, number> = {
  5: 15,
  6: 17,
  7: 18,
  8: 19,
  9: 20,
  10: 21,
  11: 23,
  12: 24,
};
const F_SS3 = "PQRS";

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/** The control byte Ctrl+`char` sends. */
function controlByte(char: string): number {
  if (/^[a-z]$/.test(char)) return char.charCodeAt(0) - 96;
  return { "@": 0, "\\": 28, "]": 29, "^": 30, "_": 31 }[char] ?? -1;
}

/**
 * The pattern of `key`'s encodings. The capture groups are the modifier
 * and event type of the CSI forms; only Ctrl (with lock keys) counts for a
 * Ctrl key, and no modifier for a function key.
 */
function keyPattern(key: AttachKey): string {
  if ("ctrl" in key) {
    const byte = controlByte(key.ctrl);
    const codes = [key.ctrl.charCodeAt(0)];
    if (/^[a-z]$/.test(key.ctrl)) codes.push(key.ctrl.toUpperCase().charCodeAt(0));
    const code = `(?:${codes.join("|")})`;
    return [
      escape(String.fromCharCode(byte)),
      // kitty: CSI code[:shifted[:base]] ; mods[:event] [; text] u
      `\\x1b\\[${code}(?::\\d*)*;(\\d+)(?::(\\d+))?(?:;[\\d:]*)?u`,
      // modifyOtherKeys: CSI 27 ; mods ; code ~
      `\\x1b\\[27;(\\d+);${code}~`,
    ].join("|");
  }
  if (key.fn <= 4) {
    const final = F_SS3[key.fn - 1];
    return `\\x1bO${final}|\\x1b\\[(?:1;(\\d+)(?::(\\d+))?)?${final}`;
  }
  return `\\x1b\\[${F_TILDE[key.fn]}(?:;(\\d+)(?::(\\d+))?)?~`;
}

/** Finds the kept keys in typed bytes. */
export class KeyFinder {
  readonly #pattern: RegExp | undefined;
  readonly #actions: KeyAction[] = [];
  readonly #ctrl: boolean[] = [];

  /** Watches for `detach` and, when given, `history`. */
  constructor(keys: { detach: AttachKey; history?: AttachKey | null }) {
    const parts: string[] = [];
    for (const [action, key] of [["detach", keys.detach], ["history", keys.history]] as const) {
      if (!key) continue;
      parts.push(`(${keyPattern(key).replace(/\((?!\?)/g, "(?:")})`);
      this.#actions.push(action);
      this.#ctrl.push("ctrl" in key);
    }
    // Each key is one group; its modifier and event are read from the match.
    this.#pattern = parts.length ? new RegExp(parts.join("|"), "g") : undefined;
  }

  /** The first kept key in `data`, or undefined. */
  find(data: Uint8Array): FoundKey | undefined {
    if (!this.#pattern) return undefined;
    const text = latin1(data);
    this.#pattern.lastIndex = 0;
    for (let match; (match = this.#pattern.exec(text)) !== null;) {
      const which = match.slice(1).findIndex((group) => group !== undefined);
      const found = classify(match[0], this.#ctrl[which]);
      if (found === undefined) continue;
      return {
        action: this.#actions[which],
        at: match.index,
        length: match[0].length,
        press: found,
      };
    }
    return undefined;
  }
}

/**
 * Whether an encoding is a press (true), a release or repeat (false), or
 * the key with other modifiers, which is not ours (undefined).
 */
function classify(sequence: string, ctrl: boolean): boolean | undefined {
  if (!sequence.startsWith("\x1b[")) return true;
  const other = /^\x1b\[27;(\d+);\d+~$/.exec(sequence);
  let mods: number;
  let event = 1;
  if (other) {
    mods = Number(other[1]);
  } else {
    const csi = /^\x1b\[[\d:]*?(?:;(\d+)(?::(\d+))?)?(?:;[\d:]*)?[u~P-S]$/.exec(sequence);
    if (!csi) return undefined;
    mods = csi[1] === undefined ? 1 : Number(csi[1]);
    if (csi[2] !== undefined) event = Number(csi[2]);
  }
  // Bits above 1 + mods: shift 1, alt 2, ctrl 4, super 8, hyper 16, meta 32, caps 64, num 128.
  const held = (mods - 1) & ~(64 | 128);
  if (held !== (ctrl ? 4 : 0)) return undefined;
  return event === 1;
}

/** Bytes as a string of the same length, one character per byte. */
function latin1(data: Uint8Array): string {
  let text = "";
  for (let i = 0; i < data.length; i += 8192) {
    text += String.fromCharCode(...data.subarray(i, i + 8192));
  }
  return text;
}
