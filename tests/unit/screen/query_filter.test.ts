import { assert, assertEquals } from "../../helpers/assert.ts";
import { QueryFilter } from "../../../lib/screen/query_filter.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ESC = "\x1b";
const ST = `${ESC}\\`;

/** Feeds `chunks` through one filter and returns everything that passed, as text. */
function run(chunks: (string | Uint8Array)[]): string {
  const filter = new QueryFilter();
  const out: Uint8Array[] = [];
  for (const chunk of chunks) {
    out.push(filter.filter(typeof chunk === "string" ? encoder.encode(chunk) : chunk));
  }
  const joined = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of out) {
    joined.set(c, offset);
    offset += c.length;
  }
  return decoder.decode(joined);
}

/** Every query the filter must remove, by name. */
const QUERIES: Record<string, string> = {
  "DA1": `${ESC}[c`,
  "DA1 with 0": `${ESC}[0c`,
  "DA2": `${ESC}[>c`,
  "DA2 with 0": `${ESC}[>0c`,
  "DA3": `${ESC}[=c`,
  "DSR status": `${ESC}[5n`,
  "CPR": `${ESC}[6n`,
  "DEC CPR": `${ESC}[?6n`,
  "DECRQM private": `${ESC}[?2026$p`,
  "DECRQM ANSI": `${ESC}[4$p`,
  "XTVERSION": `${ESC}[>q`,
  "XTVERSION with 0": `${ESC}[>0q`,
  "kitty keyboard flags": `${ESC}[?u`,
  "window size in chars": `${ESC}[18t`,
  "window size in pixels": `${ESC}[14t`,
  "cell size": `${ESC}[16t`,
  "window title report": `${ESC}[21t`,
  "OSC 4 BEL": `${ESC}]4;1;?\x07`,
  "OSC 4 ST": `${ESC}]4;255;?${ST}`,
  "OSC 10": `${ESC}]10;?\x07`,
  "OSC 11": `${ESC}]11;?${ST}`,
  "OSC 12": `${ESC}]12;?\x07`,
  "OSC 52 query": `${ESC}]52;c;?\x07`,
  "OSC 52 query, no selection": `${ESC}]52;;?${ST}`,
  "XTGETTCAP": `${ESC}P+q544e;636f6c6f7273${ST}`,
  "DECRQSS": `${ESC}P$qm${ST}`,
  "kitty graphics query": `${ESC}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA${ST}`,
  "kitty graphics query first": `${ESC}_Ga=q,i=1;AAAA${ST}`,
};

/** Sequences that are not queries and must pass byte for byte. */
const NOT_QUERIES: Record<string, string> = {
  "SGR": `${ESC}[1;38;5;208;48;2;1;2;3m`,
  "SGR reset": `${ESC}[m`,
  "cursor position": `${ESC}[10;5H`,
  "cursor up": `${ESC}[3A`,
  "erase display": `${ESC}[2J`,
  "alternate screen": `${ESC}[?1049h`,
  "hide cursor": `${ESC}[?25l`,
  "cursor style": `${ESC}[2 q`,
  "kitty keyboard push": `${ESC}[>1u`,
  "kitty keyboard pop": `${ESC}[<u`,
  "push title": `${ESC}[22t`,
  "push title with param": `${ESC}[22;0t`,
  "pop title": `${ESC}[23;0t`,
  "resize window": `${ESC}[8;24;80t`,
  "soft reset": `${ESC}[!p`,
  "OSC 0 title BEL": `${ESC}]0;my title\x07`,
  "OSC 2 title ST": `${ESC}]2;vim ~/x.ts${ST}`,
  "OSC 0 title with ?": `${ESC}]0;what?\x07`,
  "OSC 11 set colour": `${ESC}]11;rgb:0000/0000/0000${ST}`,
  "OSC 4 set colour": `${ESC}]4;1;rgb:ff/00/00\x07`,
  "OSC 104 reset colours": `${ESC}]104;1\x07`,
  "OSC 52 set": `${ESC}]52;c;aGVsbG8=\x07`,
  "OSC 8 hyperlink": `${ESC}]8;;https://example.com${ST}link${ESC}]8;;${ST}`,
  "sixel DCS": `${ESC}Pq#0;2;0;0;0#0~~${ST}`,
  "kitty graphics transmit": `${ESC}_Ga=T,f=24,s=1,v=1;AAAA${ST}`,
  "save cursor": `${ESC}7`,
  "charset": `${ESC}(B`,
  "keypad mode": `${ESC}=`,
};

Deno.test("QueryFilter: removes each kind of query, alone and inside text", () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    assertEquals(run([query]), "", name);
    assertEquals(run([`before${query}after`]), "beforeafter", name);
    assertEquals(run([`${query}${query}x${query}`]), "x", `${name} repeated`);
  }
});

Deno.test("QueryFilter: passes non-queries untouched", () => {
  for (const [name, sequence] of Object.entries(NOT_QUERIES)) {
    const text = `a${sequence}b`;
    assertEquals(run([text]), text, name);
  }
});

Deno.test("QueryFilter: mixed queries and output keep the output in order", () => {
  const input = `${ESC}[?1049h${QUERIES["DA1"]}${ESC}[1mbold${QUERIES["OSC 11"]}${ESC}]0;title\x07${
    QUERIES["CPR"]
  }${ESC}[m\r\n`;
  assertEquals(run([input]), `${ESC}[?1049h${ESC}[1mbold${ESC}]0;title\x07${ESC}[m\r\n`);
});

Deno.test("QueryFilter: returns the very chunk when it holds no ESC", () => {
  const filter = new QueryFilter();
  const chunk = encoder.encode("plain text, ünïcødé\r\n");
  assert(filter.filter(chunk) === chunk, "same object");
  const empty = new Uint8Array(0);
  assertEquals(filter.filter(empty).length, 0);
});

Deno.test("QueryFilter: sequences split at every byte offset", () => {
  const queries = Object.values(QUERIES).join("é");
  const kept = Object.values(NOT_QUERIES).join("ü");
  const input = encoder.encode(`héllo ${queries} → ${kept} 世界 ${QUERIES["DA1"]}`);
  const expected = `héllo ${"é".repeat(Object.keys(QUERIES).length - 1)} → ${kept} 世界 `;
  for (let cut = 0; cut <= input.length; cut++) {
    const got = run([input.subarray(0, cut), input.subarray(cut)]);
    assertEquals(got, expected, `cut at ${cut}`);
  }
});

Deno.test("QueryFilter: every pair of cut points around a query in UTF-8 text", () => {
  const input = encoder.encode(`ä${QUERIES["kitty graphics query"]}€${QUERIES["OSC 4 BEL"]}😀`);
  for (let a = 0; a <= input.length; a++) {
    for (let b = a; b <= input.length; b++) {
      const got = run([input.subarray(0, a), input.subarray(a, b), input.subarray(b)]);
      assertEquals(got, "ä€😀", `cuts at ${a} and ${b}`);
    }
  }
});

Deno.test("QueryFilter: one byte at a time", () => {
  const text = `x${QUERIES["XTGETTCAP"]}${NOT_QUERIES["OSC 11 set colour"]}${QUERIES["DA2"]}y`;
  const bytes = encoder.encode(text);
  const chunks = [...bytes].map((b) => new Uint8Array([b]));
  assertEquals(run(chunks), `x${NOT_QUERIES["OSC 11 set colour"]}y`);
});

Deno.test("QueryFilter: a held partial sequence survives reuse of the caller's buffer", () => {
  const filter = new QueryFilter();
  const buffer = new Uint8Array(64);
  const first = encoder.encode(`ab${ESC}]11;`);
  buffer.set(first);
  const out1 = decoder.decode(filter.filter(buffer.subarray(0, first.length)));
  buffer.fill(0x7a); // The caller reuses its buffer for the next read.
  const second = encoder.encode(`?\x07cd`);
  buffer.set(second);
  const out2 = decoder.decode(filter.filter(buffer.subarray(0, second.length)));
  assertEquals(out1 + out2, "abcd");
});

Deno.test("QueryFilter: an unterminated OSC longer than 8 KB passes through", () => {
  const long = `${ESC}]0;${"a".repeat(9000)}`;
  // In one chunk.
  assertEquals(run([`x${long}`]), `x${long}`);
  // In 1 KB chunks: held while it could still be a query, then passed on.
  const bytes = encoder.encode(`x${long}`);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1024) chunks.push(bytes.subarray(i, i + 1024));
  assertEquals(run(chunks), `x${long}`);
  // Later queries are still removed.
  assertEquals(run([...chunks, `\x07y${QUERIES["DA1"]}z`]), `x${long}\x07yz`);
});

Deno.test("QueryFilter: a short unterminated sequence is held, not passed", () => {
  const filter = new QueryFilter();
  assertEquals(decoder.decode(filter.filter(encoder.encode(`ok${ESC}]11;`))), "ok");
  assertEquals(decoder.decode(filter.filter(encoder.encode(`?`))), "");
  assertEquals(decoder.decode(filter.filter(encoder.encode(`${ST}!`))), "!");
  const lone = new QueryFilter();
  assertEquals(decoder.decode(lone.filter(encoder.encode(`ok${ESC}`))), "ok");
  assertEquals(decoder.decode(lone.filter(encoder.encode(`[31m`))), `${ESC}[31m`);
});

Deno.test({
  name: "QueryFilter: a query right after a lone ESC is still removed",
  fn() {
    assertEquals(run([`${ESC}${ESC}[c`]), ESC);
  },
});
