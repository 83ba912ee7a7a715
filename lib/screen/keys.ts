/**
 * Key names, as `skiff keys` takes them, turned into the bytes a terminal
 * sends: `Enter`, `C-c`, `M-x`, `S-Up`, `F5`, and literal text.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";

/** The terminal modes that change what keys send. */
export interface KeyModes {
  /** DECCKM: arrows send `ESC O A` instead of `ESC [ A`. */
  applicationCursorKeys: boolean;
}

const SIMPLE: Record<string, string> = {
  enter: "\r",
  return: "\r",
  tab: "\t",
  btab: "\x1b[Z",
  escape: "\x1b",
  esc: "\x1b",
  backspace: "\x7f",
  bspace: "\x7f",
  space: " ",
  pageup: "\x1b[5~",
  ppage: "\x1b[5~",
  pagedown: "\x1b[6~",
  npage: "\x1b[6~",
  insert: "\x1b[2~",
  ic: "\x1b[2~",
  delete: "\x1b[3~",
  dc: "\x1b[3~",
};

/** Cursor keys and their CSI final byte. */
const CURSOR: Record<string, string> = {
  up: "A",
  down: "B",
  right: "C",
  left: "D",
  home: "H",
  end: "F",
};

/** Function keys: SS3 finals for F1–F4, tilde codes for the rest. */
const FUNCTION: Record<number, string> = {
  1: "P",
  2: "Q",
  3: "R",
  4: "S",
  5: "15",
  6: "17",
  7: "18",
  8: "19",
  9: "20",
  10: "21",
  11: "23",
  12: "24",
};

interface Modifiers {
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

function splitModifiers(name: string): [Modifiers, string] {
  const mods: Modifiers = { ctrl: false, meta: false, shift: false };
  let rest = name;
  while (/^[CMSA]-./i.test(rest)) {
    const m = rest[0].toUpperCase();
    if (m === "C") mods.ctrl = true;
    else if (m === "S") mods.shift = true;
    else mods.meta = true;
    rest = rest.slice(2);
  }
  return [mods, rest];
}

/** The xterm modifier parameter: 1 + shift + 2·alt + 4·ctrl. */
function modifierParam(mods: Modifiers): number {
  return 1 + (mods.shift ? 1 : 0) + (mods.meta ? 2 : 0) + (mods.ctrl ? 4 : 0);
}

function controlChar(ch: string): string | undefined {
  if (/^[a-z]$/i.test(ch)) return String.fromCharCode(ch.toLowerCase().charCodeAt(0) - 96);
  const table: Record<string, number> = {
    "@": 0,
    " ": 0,
    "space": 0,
    "[": 27,
    "\\": 28,
    "]": 29,
    "^": 30,
    "_": 31,
    "?": 127,
  };
  const code = table[ch.toLowerCase()];
  return code === undefined ? undefined : String.fromCharCode(code);
}

/** Returns the bytes for one named key, or `undefined` if `name` is not a key name. */
export function keyBytes(name: string, modes: KeyModes): string | undefined {
  const [mods, base] = splitModifiers(name);
  const hasMods = mods.ctrl || mods.meta || mods.shift;
  const lower = base.toLowerCase();
  const cursor = CURSOR[lower];
  if (cursor) {
    if (hasMods) return `\x1b[1;${modifierParam(mods)}${cursor}`;
    return (modes.applicationCursorKeys ? "\x1bO" : "\x1b[") + cursor;
  }
  const fn = /^f(\d{1,2})$/.exec(lower);
  if (fn && FUNCTION[Number(fn[1])]) {
    const code = FUNCTION[Number(fn[1])];
    if (Number(fn[1]) <= 4) {
      return hasMods ? `\x1b[1;${modifierParam(mods)}${code}` : `\x1bO${code}`;
    }
    return hasMods ? `\x1b[${code};${modifierParam(mods)}~` : `\x1b[${code}~`;
  }
  if (mods.ctrl && lower === "space") return mods.meta ? "\x1b\x00" : "\x00";
  let bytes = SIMPLE[lower];
  if (bytes !== undefined) {
    if (mods.shift && lower === "tab") return mods.meta ? "\x1b\x1b[Z" : "\x1b[Z";
    // Keys like PageUp carry every modifier in their parameter, as xterm does.
    const tilde = /^\x1b\[(\d+)~$/.exec(bytes);
    if (tilde && hasMods) return `\x1b[${tilde[1]};${modifierParam(mods)}~`;
    if (mods.meta) bytes = `\x1b${bytes}`;
    return bytes;
  }
  if (!hasMods || [...base].length !== 1) return undefined;
  let key = base;
  if (mods.ctrl) {
    const control = controlChar(key);
    if (control === undefined) return undefined;
    key = control;
  } else if (mods.shift) {
    key = key.toUpperCase();
  }
  return mods.meta ? `\x1b${key}` : key;
}

/** Options for {@linkcode encodeKeys}. */
export interface EncodeKeysOptions {
  /** Send every word as text, never as a key name. */
  literal?: boolean;
  /** The pane's current key modes. */
  modes?: KeyModes;
}

/**
 * Turns `skiff keys` words into input bytes. A word that names a key becomes
 * that key; any other word is sent as text. Words are joined with nothing
 * between them, as tmux's `send-keys` does.
 */
export function encodeKeys(words: string[], options: EncodeKeysOptions = {}): string {
  const modes = options.modes ?? { applicationCursorKeys: false };
  let out = "";
  for (const word of words) {
    if (options.literal) {
      out += word;
      continue;
    }
    const bytes = keyBytes(word, modes);
    out += bytes ?? word;
  }
  return out;
}

/** Checks that a word that looks like a key with modifiers (`C-…`) is one we know. */
export function checkKeyWords(words: string[]): void {
  for (const word of words) {
    if (
      /^[CMS]-\S+$/.test(word) && keyBytes(word, { applicationCursorKeys: false }) === undefined
    ) {
      throw new SkiffError(
        `Unknown key '${word}'. Use --literal to send it as text`,
        { exit: "USAGE" },
      );
    }
  }
}
