/**
 * The keys an attached terminal keeps for itself (`[attach]` in
 * `projects.toml`): detach, and open the pane's history. Written as
 * `skiff keys` writes them: `C-\`, `C-]`, `C-a`, `F12`.
 *
 * @module
 */

/** A key `skiff attach` keeps for itself instead of typing it into the pane. */
export type AttachKey =
  | {
    /** As the config writes it, such as `C-\`. */
    name: string;
    /** Ctrl with this character: a lower-case letter, or one of `\ ] ^ _ @`. */
    ctrl: string;
  }
  | {
    /** As the config writes it, such as `F12`. */
    name: string;
    /** A function key, 1 to 12. */
    fn: number;
  };

/** The attach keys' settings. */
export interface AttachKeys {
  /** Leaves the pane (default Ctrl+\). */
  detach: AttachKey;
  /** Opens the pane's history in a pager (default Ctrl+]); null when turned off. */
  history: AttachKey | null;
}

/** The default detach key. */
export const DEFAULT_DETACH_KEY = "C-\\";
/** The default history key. */
export const DEFAULT_HISTORY_KEY = "C-]";

/** Ctrl keys that are other keys too: keeping one would take that key from every program. */
const TAKEN: Record<string, string> = {
  h: "Backspace",
  i: "Tab",
  j: "Enter",
  m: "Enter",
  "[": "Escape",
};

/** What a key setting may be, for error messages. */
export const ATTACH_KEY_FORMS =
  'C- with a letter or one of \\ ] ^ _ @ (such as "C-\\\\" or "C-]"), or F1 to F12';

/**
 * Reads one key setting. Returns the key, or what is wrong with it, worded
 * to follow the setting's name (`'attach.detach_key' is 'C-m', which …`).
 */
export function parseAttachKey(spec: string): AttachKey | string {
  const ctrl = /^C-(.)$/i.exec(spec);
  if (ctrl) {
    const char = ctrl[1].toLowerCase();
    if (TAKEN[char]) return `is '${spec}', which is ${TAKEN[char]}: programs need it`;
    if (/^[a-z\\\]^_@]$/.test(char)) return { name: `C-${char}`, ctrl: char };
    return `is '${spec}', not a key Skiff can keep; use ${ATTACH_KEY_FORMS}`;
  }
  const fn = /^F(\d{1,2})$/i.exec(spec);
  if (fn && Number(fn[1]) >= 1 && Number(fn[1]) <= 12) {
    return { name: `F${Number(fn[1])}`, fn: Number(fn[1]) };
  }
  return `is '${spec}', not a key Skiff can keep; use ${ATTACH_KEY_FORMS}`;
}

/** How a person presses `key`, for help lines: `Ctrl+\`, `F12`. */
export function describeKey(key: AttachKey): string {
  return "ctrl" in key ? `Ctrl+${key.ctrl}` : key.name;
}
