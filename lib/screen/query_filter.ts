/**
 * Removes terminal queries from the byte stream sent to attached terminals.
 *
 * skiffd answers every query itself, attached or not. If a query also reached
 * the person's terminal, that terminal would answer too, and the program would
 * read two answers as typed input.
 *
 * @module
 */

import { joinBytes } from "../platform/bytes.ts";

const ESC = 0x1b;
const BEL = 0x07;
const BACKSLASH = 0x5c;
const MAX_SEQUENCE = 8192;

const decoder = new TextDecoder();

/** Whether a complete CSI body (after `ESC [`) is a query. */
function isCsiQuery(body: string): boolean {
  const final = body.at(-1);
  const params = body.slice(0, -1);
  switch (final) {
    case "c": // DA1, DA2, DA3
      return /^([>=]?\d*)$/.test(params);
    case "n": // DSR and CPR requests
      return /^\??\d+$/.test(params);
    case "p": // DECRQM
      return params.endsWith("$");
    case "q": // XTVERSION
      return params.startsWith(">");
    case "u": // kitty keyboard flags
      return params === "?";
    case "t": // window reports (22 and 23 push and pop titles, which are not queries)
      return /^(1[13-9]|2[01])(;\d+)*$/.test(params);
    default:
      return false;
  }
}

/** Whether a complete OSC body (no terminator) is a query. */
function isOscQuery(body: string): boolean {
  if (/^(4;\d+|1\d|5[0-9]|52;[a-z0-9]*);\?$/.test(body)) return true;
  if (/^1[0-9];\?/.test(body)) return true;
  if (body.startsWith("99;") && body.includes("p=?")) return true;
  return body === "1337;Capabilities" || body.startsWith("1337;ReportCellSize");
}

function isQuery(kind: number, body: string): boolean {
  switch (kind) {
    case 0x5b: // CSI
      return isCsiQuery(body);
    case 0x5d: // OSC
      return isOscQuery(body);
    case 0x50: // DCS: XTGETTCAP, DECRQSS, tmux passthrough
      return body.startsWith("+q") || body.startsWith("$q") || body.startsWith("tmux;");
    case 0x5f: // APC: kitty graphics query
      return body.startsWith("G") && /(^G|,)a=q(,|;|$)/.test(body);
    default:
      return false;
  }
}

/** Returns the index just past the sequence at `start`, and where its body ends; -1 if incomplete. */
function sequenceEnd(bytes: Uint8Array, start: number): [end: number, bodyEnd: number] {
  const kind = bytes[start + 1];
  if (kind === undefined) return [-1, -1];
  // A lone ESC before another ESC is a sequence of its own.
  if (kind === ESC) return [start + 1, start + 1];
  if (kind === 0x5b) {
    for (let i = start + 2; i < bytes.length; i++) {
      const b = bytes[i];
      if (b >= 0x40 && b <= 0x7e) return [i + 1, i + 1];
      if (b < 0x20) return [i, i];
    }
    return [-1, -1];
  }
  if (kind === 0x5d || kind === 0x50 || kind === 0x5f || kind === 0x5e || kind === 0x58) {
    for (let i = start + 2; i < bytes.length; i++) {
      if (bytes[i] === BEL && kind === 0x5d) return [i + 1, i];
      if (bytes[i] === ESC) {
        if (i + 1 >= bytes.length) return [-1, -1];
        if (bytes[i + 1] === BACKSLASH) return [i + 2, i];
      }
    }
    return [-1, -1];
  }
  return [start + 2, start + 2];
}

/** A stateful filter: feed it chunks in order; it returns what may pass. */
export class QueryFilter {
  #held: Uint8Array | undefined;

  /** Returns `chunk` with every complete query removed; keeps a split sequence for the next chunk. */
  filter(chunk: Uint8Array): Uint8Array {
    const bytes = this.#held ? joinBytes([this.#held, chunk]) : chunk;
    this.#held = undefined;
    let esc = bytes.indexOf(ESC);
    if (esc === -1) return bytes;
    const parts: Uint8Array[] = [];
    let from = 0;
    while (esc !== -1) {
      const [end, bodyEnd] = sequenceEnd(bytes, esc);
      if (end === -1) {
        if (bytes.length - esc <= MAX_SEQUENCE) {
          parts.push(bytes.subarray(from, esc));
          this.#held = bytes.slice(esc);
          from = bytes.length;
        }
        break;
      }
      const body = decoder.decode(bytes.subarray(esc + 2, bodyEnd));
      if (isQuery(bytes[esc + 1], body)) {
        parts.push(bytes.subarray(from, esc));
        from = end;
      }
      esc = bytes.indexOf(ESC, end);
    }
    if (from < bytes.length) parts.push(bytes.subarray(from));
    return joinBytes(parts);
  }
}
