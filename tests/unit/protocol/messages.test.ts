import { assertEquals } from "../../helpers/assert.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../../../lib/protocol/messages.ts";

const encoder = new TextEncoder();

interface Collected {
  lines: string[];
  oversize: number;
  push(chunk: Uint8Array | string): void;
}

function collector(): Collected {
  const splitter = new LineSplitter();
  const c: Collected = {
    lines: [],
    oversize: 0,
    push(chunk) {
      splitter.push(
        typeof chunk === "string" ? encoder.encode(chunk) : chunk,
        (line) => c.lines.push(line),
        () => c.oversize++,
      );
    },
  };
  return c;
}

Deno.test("LineSplitter: many lines in one chunk, including empty ones", () => {
  const c = collector();
  c.push('{"id":1}\n{"id":2}\n\n{"id":3}\n');
  assertEquals(c.lines, ['{"id":1}', '{"id":2}', "", '{"id":3}']);
  assertEquals(c.oversize, 0);
});

Deno.test("LineSplitter: a line is held until its newline arrives", () => {
  const c = collector();
  c.push('{"a":');
  assertEquals(c.lines, []);
  c.push("1}");
  assertEquals(c.lines, []);
  c.push('\n{"b"');
  assertEquals(c.lines, ['{"a":1}']);
  c.push(":2}\nlast");
  assertEquals(c.lines, ['{"a":1}', '{"b":2}']);
  c.push("\n");
  assertEquals(c.lines, ['{"a":1}', '{"b":2}', "last"]);
});

Deno.test("LineSplitter: every split point, and one byte at a time, with UTF-8", () => {
  const text = 'first line\n{"t":"héllo wörld 世界 😀"}\n\nend\n';
  const bytes = encoder.encode(text);
  const expected = ["first line", '{"t":"héllo wörld 世界 😀"}', "", "end"];
  for (let cut = 0; cut <= bytes.length; cut++) {
    const c = collector();
    c.push(bytes.subarray(0, cut));
    c.push(bytes.subarray(cut));
    assertEquals(c.lines, expected, `cut at ${cut}`);
  }
  const c = collector();
  for (const b of bytes) c.push(new Uint8Array([b]));
  assertEquals(c.lines, expected);
});

Deno.test("LineSplitter: the caller may reuse its chunk buffer", () => {
  const c = collector();
  const buffer = new Uint8Array(32);
  const feed = (text: string) => {
    buffer.fill(0x21);
    const bytes = encoder.encode(text);
    buffer.set(bytes);
    c.push(buffer.subarray(0, bytes.length));
  };
  feed("abc");
  feed("def");
  feed("gh\nij");
  feed("kl\n");
  assertEquals(c.lines, ["abcdefgh", "ijkl"]);
});

Deno.test("LineSplitter: a line of exactly the maximum is accepted", () => {
  const c = collector();
  const line = "x".repeat(MAX_LINE_BYTES);
  c.push(line.slice(0, 1000));
  c.push(line.slice(1000) + "\nnext\n");
  assertEquals(c.oversize, 0);
  assertEquals(c.lines.length, 2);
  assertEquals(c.lines[0].length, MAX_LINE_BYTES);
  assertEquals(c.lines[1], "next");
});

Deno.test("LineSplitter: an oversize line in one chunk is reported and dropped", () => {
  const c = collector();
  c.push(`before\n${"y".repeat(MAX_LINE_BYTES + 1)}\nafter\n`);
  assertEquals(c.lines, ["before", "after"]);
  assertEquals(c.oversize, 1);
});

Deno.test("LineSplitter: an oversize line across many chunks is reported once", () => {
  const c = collector();
  c.push('{"ok":1}\n{"big":"');
  const piece = "z".repeat(64 * 1024);
  for (let i = 0; i < 40; i++) c.push(piece); // 2.5 MB without a newline
  assertEquals(c.oversize, 1);
  assertEquals(c.lines, ['{"ok":1}']);
  c.push('"}\n{"ok":2}\n');
  assertEquals(c.oversize, 1);
  assertEquals(c.lines, ['{"ok":1}', '{"ok":2}']);
  // Later oversize lines are reported again.
  c.push("w".repeat(MAX_LINE_BYTES + 10));
  c.push("\nfine\n");
  assertEquals(c.oversize, 2);
  assertEquals(c.lines, ['{"ok":1}', '{"ok":2}', "fine"]);
});

Deno.test("LineSplitter: the newline that ends an oversize line may come in its own chunk", () => {
  const c = collector();
  c.push("q".repeat(MAX_LINE_BYTES + 1));
  c.push("\n");
  c.push("x\n");
  assertEquals([c.oversize, c.lines], [1, ["x"]]);
});

Deno.test("LineSplitter: a line callback that returns false stops there and gets the rest back", () => {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const bytes = new TextEncoder().encode("one\nstop\n\u0000binary\nmore");
  const rest = splitter.push(bytes, (text) => {
    lines.push(text);
    return text !== "stop";
  }, () => {});
  assertEquals(lines, ["one", "stop"]);
  assertEquals(new TextDecoder().decode(rest), "\u0000binary\nmore");
  bytes.fill(0); // the rest is a copy
  assertEquals(new TextDecoder().decode(rest), "\u0000binary\nmore");
  // A stop at the chunk's end leaves nothing over.
  assertEquals(splitter.push(new TextEncoder().encode("x\n"), () => false, () => {}), undefined);
});
