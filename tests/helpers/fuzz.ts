/**
 * Frames for fuzzing skiffd's protocol: requests with bad params, wrong
 * types, huge numbers, unknown methods, truncated JSON, oversized lines,
 * bytes that are not UTF-8, and bad attach frames. A seeded generator, so a
 * failing run can be replayed with its seed.
 *
 * @module
 */

import { encodeFrame, Frame, FRAME_HEADER, MAX_FRAME_PAYLOAD } from "../../lib/protocol/frames.ts";
import { MAX_LINE_BYTES } from "../../lib/protocol/messages.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A small, fast, seeded random source (mulberry32). */
export class Rng {
  #state: number;

  /** Makes a source that always gives the same numbers for `seed`. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** Every method skiffd knows, except the two whose whole point is to end every connection. */
export const FUZZ_METHODS = [
  "hello",
  "daemon.status",
  "events.subscribe",
  "pane.new",
  "pane.list",
  "pane.get",
  "pane.capture",
  "pane.keys",
  "pane.rename",
  "pane.kill",
  "pane.resize",
  "pane.send",
  "pane.wait",
  "pane.seen",
  "pane.explain",
  "pane.hook",
  "session.list",
  "session.get",
  "session.mark",
  "attach",
  "watch.register",
  "watch.report",
  "watch.status",
] as const;

/** Methods that would change the workspace if their params were valid. */
const CHANGING = new Set([
  "pane.new",
  "pane.keys",
  "pane.rename",
  "pane.kill",
  "pane.resize",
  "pane.send",
  "pane.seen",
  "pane.hook",
  "session.mark",
  "attach",
]);

/** Methods that only read: they may name a real pane. */
const READING = new Set(["pane.get", "pane.capture", "pane.explain", "session.get"]);

/** Param names the methods read, so that mutations hit real code paths. */
const KEYS = [
  "pane",
  "session",
  "name",
  "cwd",
  "project",
  "command",
  "env",
  "client_env",
  "cols",
  "rows",
  "keys",
  "literal",
  "text",
  "enter",
  "any",
  "timeout_ms",
  "since_inputs",
  "until",
  "ansi",
  "scrollback",
  "key",
  "value",
  "mark",
  "after",
  "agent",
  "event",
  "payload",
  "pid",
  "ok",
  "last",
  "watching",
  "waiting_lines",
  "protocol",
];

/** A number the JSON text carries as written: `1e999` parses to Infinity. */
const HUGE = "\u0000huge\u0000";
const HUGE_TEXT = ["1e999", "-1e999", "123456789012345678901234567890", "1e-400", "-0"];

/** What one fuzz frame is and how many answer lines it is owed. */
export interface FuzzFrame {
  /** The bytes to send. */
  bytes: Uint8Array;
  /** How many answer lines skiffd owes for it (each non-blank line gets one). */
  answers: number;
  /** The kind, for the counts in the report. */
  kind: string;
}

/** The ids and names of the panes and sessions that exist. */
export interface RealRefs {
  /** Pane ids. */
  panes: string[];
  /** Session ids. */
  sessions: string[];
  /** Pane and session names. */
  names: string[];
}

/** Makes fuzz frames for JSON-lines connections and for attached ones. */
export class FrameFuzzer {
  readonly #rng: Rng;
  readonly #real: RealRefs;
  readonly #taken: Set<string>;

  /**
   * `real` names the real panes and sessions: a request that would change
   * the workspace never names one, so the fuzzer's requests can be wrong in
   * every way but never do real harm; requests that only read may.
   */
  constructor(rng: Rng, real: RealRefs) {
    this.#rng = rng;
    this.#real = real;
    this.#taken = new Set([...real.panes, ...real.sessions, ...real.names]);
  }

  #string(): string {
    const r = this.#rng;
    const pools = [
      "abcdefghijklmnopqrstuvwxyz0123456789",
      "p0123456789s/._-",
      '\u0000\u0001\u001b\u007f\t\r\n"\\',
      "é漢字🙂\u200b\u2028\ufeff\ud800",
    ];
    const length = r.chance(0.02) ? 1000 + r.int(60_000) : r.int(24);
    let text = "";
    for (let i = 0; i < length; i++) {
      const pool = r.pick(pools);
      text += pool[r.int(pool.length)];
    }
    return text;
  }

  /** A pane or session ref that names nothing real. */
  #ref(): unknown {
    const r = this.#rng;
    if (r.chance(0.2)) return this.#value(0);
    const ref = r.pick([
      "",
      "p0",
      `p${900_000 + r.int(1000)}`,
      `s${900_000 + r.int(1000)}`,
      "nope",
      "a/b",
      "/",
      "../../etc",
      this.#string(),
    ]);
    return typeof ref === "string" && this.#taken.has(ref) ? `${ref}-not` : ref;
  }

  #value(depth: number): unknown {
    const r = this.#rng;
    switch (r.int(depth > 2 ? 6 : 9)) {
      case 0:
        return this.#string();
      case 1:
        return r.pick([0, -1, 1, 2, 1.5, -(2 ** 31), 2 ** 31, 2 ** 53 + 2, 1e21, 1e308, -1e308]);
      case 2:
        return HUGE;
      case 3:
        return r.chance(0.5);
      case 4:
        return null;
      case 5:
        return r.int(2000);
      case 6:
        return Array.from({ length: r.int(5) }, () => this.#value(depth + 1));
      case 7:
      case 8: {
        const object: Record<string, unknown> = {};
        for (let i = r.int(5); i > 0; i--) {
          object[r.chance(0.8) ? r.pick(KEYS) : this.#string()] = this.#value(depth + 1);
        }
        return object;
      }
    }
  }

  #params(method: string): Record<string, unknown> {
    const r = this.#rng;
    const params: Record<string, unknown> = {};
    for (let i = r.int(6); i > 0; i--) params[r.pick(KEYS)] = this.#value(1);
    if (READING.has(method) && r.chance(0.3)) {
      // Reading a real pane with odd options is harmless, and reaches deeper code.
      params.pane = r.pick(this.#real.panes);
      params.session = r.pick(this.#real.sessions);
    }
    if (CHANGING.has(method)) {
      // Never a real target, and never a whole valid request to make a pane.
      params.pane = this.#ref();
      params.session = this.#ref();
      if (method === "pane.new") {
        // Wrong three ways, so that bytes mixed into one of them still leave it wrong.
        params.cwd = r.pick([42, "relative/dir", "/no/such/dir", null]);
        params.cols = r.pick(["wide", -5, 1e9, 2.5]);
        params.rows = r.pick(["tall", -5, 1e9, 2.5]);
      }
    }
    return params;
  }

  #id(): unknown {
    const r = this.#rng;
    return r.chance(0.85) ? r.int(1_000_000) : this.#value(2);
  }

  /** JSON text of `value`, with the huge-number markers written as numbers. */
  #json(value: unknown): string {
    const text = JSON.stringify(value) ?? "null";
    return text.replaceAll(JSON.stringify(HUGE), () => this.#rng.pick(HUGE_TEXT));
  }

  #line(text: string | Uint8Array, kind: string): FuzzFrame {
    const body = typeof text === "string" ? encoder.encode(text) : text;
    const bytes = new Uint8Array(body.length + 1);
    bytes.set(body);
    bytes[body.length] = 0x0a;
    // As skiffd counts: every line that is not blank gets one answer.
    let answers = 0;
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 0x0a) continue;
      if (decoder.decode(bytes.subarray(start, i)).trim() !== "") answers++;
      start = i + 1;
    }
    return { bytes, answers, kind };
  }

  /** One frame for a connection in JSON-lines mode. */
  request(): FuzzFrame {
    const r = this.#rng;
    const method = r.pick(FUZZ_METHODS);
    const valid = () => ({ id: this.#id(), method, params: this.#params(method) });
    const roll = r.next();
    if (roll < 0.4) return this.#line(this.#json(valid()), "bad params");
    if (roll < 0.55) {
      const request: Record<string, unknown> = valid();
      const field = r.pick(["id", "method", "params"]);
      // Params left out or empty are valid for most methods: only for those that change nothing.
      const harmless = field !== "params" || !CHANGING.has(method);
      const wrong = harmless ? [[], {}, 3.5, true, null, "x", [1]] : [[], 3.5, true, "x", [1]];
      request[field] = harmless && r.chance(0.3) ? undefined : r.pick(wrong);
      if (field === "id" && request.id === undefined) delete request.id;
      return this.#line(this.#json(request), "wrong types");
    }
    if (roll < 0.65) {
      return this.#line(
        this.#json({ id: this.#id(), method: this.#string(), params: this.#params("") }),
        "unknown method",
      );
    }
    if (roll < 0.77) {
      const text = this.#json(valid());
      return this.#line(text.slice(0, Math.max(1, r.int(text.length))), "truncated JSON");
    }
    if (roll < 0.87) {
      // Bytes mixed into a key could turn a wrong request into a valid one: only where
      // that is harmless.
      const target = CHANGING.has(method) ? "pane.get" : method;
      const text = encoder.encode(
        this.#json({ id: this.#id(), method: target, params: this.#params(target) }),
      );
      const at = r.int(text.length);
      const junk = r.bytes(1 + r.int(12)).map((b) => (b === 0x0a ? 0xff : b | 0x80));
      const mixed = new Uint8Array(text.length + junk.length);
      mixed.set(text.subarray(0, at));
      mixed.set(junk, at);
      mixed.set(text.subarray(at), at + junk.length);
      return this.#line(r.chance(0.3) ? r.bytes(r.int(64)) : mixed, "not UTF-8");
    }
    if (roll < 0.93) {
      return this.#line(
        this.#json({ id: this.#id(), method: "hello", params: { protocol: this.#value(2) } }),
        "bad hello",
      );
    }
    const junk = r.pick([
      "",
      "   ",
      "null",
      "1",
      '"text"',
      "[]",
      "{}",
      '{"id":1}',
      "[".repeat(5000) + "]".repeat(5000),
      '{"a":'.repeat(3000) + "1" + "}".repeat(3000),
      this.#json(this.#value(0)),
    ]);
    return this.#line(junk, "junk");
  }

  /** A line longer than skiffd takes (it answers once and reads on). */
  oversized(): FuzzFrame {
    const size = MAX_LINE_BYTES + 1 + this.#rng.int(MAX_LINE_BYTES / 4);
    const body = new Uint8Array(size).fill(0x61);
    body.set(encoder.encode('{"id":1,"method":"pane.list","params":{"x":"'));
    return this.#line(body, "oversized line");
  }

  /** One frame for an attached connection; `fatal` when skiffd should close it. */
  attachFrame(): FuzzFrame & { fatal: boolean } {
    const r = this.#rng;
    const roll = r.next();
    const frame = (type: number, payload: Uint8Array | string, kind: string, fatal = false) => ({
      bytes: encodeFrame(type, payload),
      answers: 0,
      kind,
      fatal,
    });
    if (roll < 0.35) return frame(Frame.INPUT, r.bytes(r.int(200)), "attach input");
    if (roll < 0.7) {
      const payload = r.chance(0.5)
        ? this.#json({ cols: this.#value(2), rows: this.#value(2) })
        : r.chance(0.5)
        ? this.#json({ cols: 2 + r.int(400), rows: 2 + r.int(200) })
        : r.bytes(r.int(40));
      return frame(Frame.RESIZE, payload, "attach resize");
    }
    if (roll < 0.98) {
      const type = r.pick([0, 1, 0x6f, 0x78, 0xff, 0x41]);
      return frame(type, r.bytes(r.int(100)), "attach unknown type");
    }
    if (roll < 0.99) {
      // A header that promises more than skiffd takes: it closes the connection.
      const bytes = new Uint8Array(FRAME_HEADER);
      bytes[0] = Frame.INPUT;
      new DataView(bytes.buffer).setUint32(1, MAX_FRAME_PAYLOAD + 1 + r.int(2 ** 30));
      return { bytes, answers: 0, kind: "attach oversized frame", fatal: true };
    }
    // Half a frame: the rest never comes, and the connection ends.
    const whole = encodeFrame(Frame.INPUT, r.bytes(10 + r.int(100)));
    return {
      bytes: whole.subarray(0, 1 + r.int(whole.length - 1)),
      answers: 0,
      kind: "attach truncated frame",
      fatal: true,
    };
  }
}
