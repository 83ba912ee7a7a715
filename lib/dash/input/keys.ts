/**
 * Reading keys from the terminal's bytes: the named keys the dashboard
 * uses (arrows, Enter, Escape, Backspace, Tab, Ctrl+letters) and text. A
 * bracketed paste arrives as one `paste` key with its text.
 *
 * @module
 */

/** One key press, or a paste. */
export type Key =
  | { name: "char"; char: string }
  | { name: "paste"; text: string }
  | {
    name:
      | "up"
      | "down"
      | "left"
      | "right"
      | "pageup"
      | "pagedown"
      | "home"
      | "end"
      | "enter"
      | "escape"
      | "backspace"
      | "tab"
      | "delete"
      | "ctrl-c"
      | "ctrl-d"
      | "ctrl-l"
      | "ctrl-u"
      | "ctrl-w"
      | "ctrl-backslash"
      | "unknown";
  };

const CSI_KEYS: Record<string, Key["name"]> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "5~": "pageup",
  "6~": "pagedown",
  "1~": "home",
  "4~": "end",
  "7~": "home",
  "8~": "end",
  "3~": "delete",
};

const CONTROL: Record<number, Key["name"]> = {
  0x03: "ctrl-c",
  0x04: "ctrl-d",
  0x0c: "ctrl-l",
  0x15: "ctrl-u",
  0x17: "ctrl-w",
  0x1c: "ctrl-backslash",
  0x09: "tab",
  0x0d: "enter",
  0x0a: "enter",
  0x7f: "backspace",
  0x08: "backspace",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Splits what the terminal sent into keys. */
export function parseKeys(text: string): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith(PASTE_START, i)) {
      const end = text.indexOf(PASTE_END, i + PASTE_START.length);
      const stop = end === -1 ? text.length : end;
      keys.push({ name: "paste", text: text.slice(i + PASTE_START.length, stop) });
      i = end === -1 ? text.length : end + PASTE_END.length;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 0x1b) {
      const next = text[i + 1];
      if (next === "[" || next === "O") {
        // CSI or SS3: parameters, then a final byte from @ to ~.
        let j = i + 2;
        while (j < text.length && !/[@-~]/.test(text[j])) j++;
        const body = text.slice(i + 2, j + 1);
        const plain = body.replace(/^1;\d+/, "");
        keys.push({ name: CSI_KEYS[plain] ?? CSI_KEYS[body] ?? "unknown" } as Key);
        i = j + 1;
        continue;
      }
      keys.push({ name: "escape" });
      // Alt+key arrives as Escape then the key: the key counts on its own.
      i++;
      continue;
    }
    const control = CONTROL[c];
    if (control) {
      keys.push({ name: control } as Key);
      // A CR LF pair is one Enter.
      i += c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      continue;
    }
    if (c < 0x20) {
      keys.push({ name: "unknown" });
      i++;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    keys.push({ name: "char", char });
    i += char.length;
  }
  return keys;
}
