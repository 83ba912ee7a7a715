/**
 * Keeping a headless xterm small. An idle pane's terminal costs a few hundred
 * KB, most of it fixed by xterm; three parts of it only need to be as big as
 * what the pane printed:
 *
 * - the handler lists of the escape sequence parser, grown by `push`;
 * - the parser's decode buffer, which keeps the size of the largest write;
 * - the scrollback ring, which xterm allocates at its full length up front.
 *
 * These reach into xterm's private core, so they are written against the
 * pinned version (6.0.0), check every field they touch, and do nothing when a
 * field is missing; `tests/unit/xterm_memory.test.ts` fails if one goes.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";

/** A parser part that keeps handler lists by identifier. */
interface HandlerHolder {
  _csiHandlers?: Record<string, unknown[]>;
  _escHandlers?: Record<string, unknown[]>;
  _handlers?: Record<string, unknown[]>;
}

/** The ring of lines behind a buffer. */
export interface LineRing {
  length: number;
  maxLength: number;
  /** The line object at `index` (history first). */
  get(index: number): unknown;
}

/** The parts of xterm's private core used here. */
interface XtermCore {
  _inputHandler?: {
    _parseBuffer?: Uint32Array;
    _parser?: HandlerHolder & {
      _oscParser?: HandlerHolder;
      _dcsParser?: HandlerHolder;
      currentState?: number;
    };
    _utf8Decoder?: { interim?: Uint8Array };
    _stringDecoder?: { _interim?: number };
  };
  optionsService?: { rawOptions?: { scrollback?: number } };
  _bufferService?: { buffers?: { normal?: { lines?: LineRing } } };
}

function coreOf(term: Terminal): XtermCore {
  return (term as unknown as { _core?: XtermCore })._core ?? {};
}

/** The ring of lines behind `term`'s normal buffer, as xterm's core keeps it. */
export function normalLineRing(term: Terminal): LineRing | undefined {
  const lines = coreOf(term)._bufferService?.buffers?.normal?.lines;
  return typeof lines?.get === "function" ? lines : undefined;
}

/** The decode buffer an idle terminal keeps (xterm starts at 4096 and grows to the largest write). */
const IDLE_PARSE_BUFFER = 256;

/** Scrollback lines a terminal starts with before it grows toward its limit. */
export const FIRST_SCROLLBACK = 64;

/**
 * Replaces each handler list with an exact-size copy: `push` reserves 17
 * slots for one handler, about 30 KB a terminal. A handler's own dispose then
 * no longer finds its list, which is fine for handlers that live as long as
 * the terminal: its dispose clears every list.
 */
export function compactHandlerLists(term: Terminal): number {
  const parser = coreOf(term)._inputHandler?._parser;
  let lists = 0;
  for (const holder of [parser, parser?._oscParser, parser?._dcsParser]) {
    for (const map of [holder?._csiHandlers, holder?._escHandlers, holder?._handlers]) {
      if (!map) continue;
      for (const key of Object.keys(map)) {
        if (!Array.isArray(map[key])) continue;
        map[key] = map[key].slice();
        lists++;
      }
    }
  }
  return lists;
}

/**
 * Whether `term`'s parser rests between sequences: in its ground state, with
 * no part of a UTF-8 character or a surrogate pair held back. Only then does
 * a saved state hold all that the next byte of output meets; a screen whose
 * output stopped in the middle of a sequence stays as it is. False when a
 * field is missing.
 */
export function parserAtRest(term: Terminal): boolean {
  const handler = coreOf(term)._inputHandler;
  const state = handler?._parser?.currentState;
  const utf8 = handler?._utf8Decoder?.interim;
  const utf16 = handler?._stringDecoder?._interim;
  // ParserState.GROUND is 0 in xterm's escape sequence parser.
  return state === 0 && utf8 instanceof Uint8Array && utf8[0] === 0 && utf16 === 0;
}

/** Shrinks the parser's decode buffer; xterm makes it again at the size of the next write. */
export function shrinkParseBuffer(term: Terminal): boolean {
  const handler = coreOf(term)._inputHandler;
  if (!(handler?._parseBuffer instanceof Uint32Array)) return false;
  if (handler._parseBuffer.length > IDLE_PARSE_BUFFER) {
    handler._parseBuffer = new Uint32Array(IDLE_PARSE_BUFFER);
  }
  return true;
}

/**
 * Grows the scrollback ring of the normal buffer so that `incoming` more
 * lines fit without dropping any, up to `limit` lines of scrollback. Parsing
 * n bytes adds at most n lines (each line feed is a byte, each wrap needs a
 * printed character), so calling this with a write's length before the write
 * keeps every line a full-size ring would keep.
 *
 * The option is set in xterm's raw options, not through `term.options`: that
 * would resize both buffers, and a resize resets tab stops.
 *
 * Returns the scrollback the terminal now has room for.
 */
export function growScrollback(term: Terminal, incoming: number, limit: number): number {
  const raw = coreOf(term).optionsService?.rawOptions;
  const lines = normalLineRing(term);
  if (!raw || typeof raw.scrollback !== "number" || !lines) {
    // Without the fields, give the terminal its whole scrollback the public way.
    if (term.options.scrollback !== limit) term.options.scrollback = limit;
    return limit;
  }
  const current = raw.scrollback;
  if (current >= limit || lines.length + incoming <= lines.maxLength) return current;
  const wanted = lines.length + incoming - term.rows;
  const next = Math.min(limit, Math.max(current * 2, wanted + FIRST_SCROLLBACK));
  raw.scrollback = next;
  lines.maxLength = term.rows + next;
  return next;
}

/**
 * The scrollback of one terminal, grown by {@linkcode growScrollback} as
 * output comes, with the bytes given to xterm's asynchronous write and not
 * parsed yet (they need room too).
 */
export class ScrollbackRoom {
  /** The scrollback asked for. */
  readonly #limit: number;
  /** The scrollback the terminal has room for now. */
  #room: number;
  #term: Terminal | undefined;
  /** Bytes given to the asynchronous write and not parsed yet. */
  queued = 0;

  /** Room for up to `limit` lines of scrollback; {@linkcode first} is what a terminal starts with. */
  constructor(limit: number) {
    this.#limit = limit;
    this.#room = Math.min(limit, FIRST_SCROLLBACK);
  }

  /** The scrollback to make the terminal with. */
  get first(): number {
    return this.#room;
  }

  /** Follows `term`, made with {@linkcode first} lines of scrollback. */
  follow(term: Terminal): void {
    this.#term = term;
  }

  /** Makes room for `incoming` more lines (at most one a byte). */
  grow(incoming: number): void {
    if (this.#term && this.#room < this.#limit) {
      this.#room = growScrollback(this.#term, incoming, this.#limit);
    }
  }

  /** Gives the scrollback its full room (before a reflow, which may add many lines at once). */
  growAll(): void {
    if (this.#term) this.#room = growScrollback(this.#term, Infinity, this.#limit);
  }
}
