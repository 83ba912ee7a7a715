import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  encodeFrame,
  Frame,
  FRAME_HEADER,
  FrameReader,
  MAX_FRAME_PAYLOAD,
} from "../../../lib/protocol/frames.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

Deno.test("encodeFrame: type byte, big-endian length, payload", () => {
  assertEquals(FRAME_HEADER, 5);
  assertEquals(
    encodeFrame(Frame.OUTPUT, new Uint8Array([1, 2, 3])),
    new Uint8Array([0x6f, 0, 0, 0, 3, 1, 2, 3]),
  );
  assertEquals(encodeFrame(Frame.DETACH, ""), new Uint8Array([0x71, 0, 0, 0, 0]));
  const big = encodeFrame(Frame.INPUT, new Uint8Array(0x010203));
  assertEquals([...big.subarray(0, 5)], [0x69, 0, 1, 2, 3]);
  // Strings are UTF-8.
  assertEquals([...encodeFrame(Frame.RESIZE, "é").subarray(1)], [0, 0, 0, 2, 0xc3, 0xa9]);
});

Deno.test("Frame types", () => {
  assertEquals(Frame, {
    OUTPUT: 0x6f,
    END: 0x78,
    INPUT: 0x69,
    RESIZE: 0x72,
    DETACH: 0x71,
    REDRAW: 0x64,
  });
});

Deno.test("FrameReader: round trip of several frames in one chunk", () => {
  const reader = new FrameReader();
  const frames = reader.push(concat([
    encodeFrame(Frame.OUTPUT, "hello"),
    encodeFrame(Frame.RESIZE, JSON.stringify({ cols: 80, rows: 24 })),
    encodeFrame(Frame.DETACH, ""),
    encodeFrame(Frame.END, new Uint8Array([0, 255])),
  ]));
  assertEquals(frames.map((f) => f.type), [Frame.OUTPUT, Frame.RESIZE, Frame.DETACH, Frame.END]);
  assertEquals(decoder.decode(frames[0].payload), "hello");
  assertEquals(JSON.parse(decoder.decode(frames[1].payload)), { cols: 80, rows: 24 });
  assertEquals(frames[2].payload.length, 0);
  assertEquals(frames[3].payload, new Uint8Array([0, 255]));
  assertEquals(reader.push(new Uint8Array(0)), []);
});

Deno.test("FrameReader: frames split at every offset", () => {
  const stream = concat([
    encodeFrame(Frame.INPUT, "ls -la\r"),
    encodeFrame(Frame.OUTPUT, encoder.encode("wörld 😀")),
    encodeFrame(Frame.DETACH, ""),
    encodeFrame(Frame.INPUT, "x"),
  ]);
  const expected = [
    [Frame.INPUT, "ls -la\r"],
    [Frame.OUTPUT, "wörld 😀"],
    [Frame.DETACH, ""],
    [Frame.INPUT, "x"],
  ];
  for (let a = 0; a <= stream.length; a++) {
    for (let b = a; b <= stream.length; b++) {
      const reader = new FrameReader();
      const frames = [
        ...reader.push(stream.subarray(0, a)),
        ...reader.push(stream.subarray(a, b)),
        ...reader.push(stream.subarray(b)),
      ];
      assertEquals(
        frames.map((f) => [f.type, decoder.decode(f.payload)]),
        expected,
        `cuts at ${a} and ${b}`,
      );
    }
  }
});

Deno.test("FrameReader: payloads are copies, safe from buffer reuse", () => {
  const reader = new FrameReader();
  const chunk = encodeFrame(Frame.OUTPUT, "abc");
  const [frame] = reader.push(chunk);
  chunk.fill(0);
  assertEquals(decoder.decode(frame.payload), "abc");
  // A partial frame held across chunks survives the caller's reuse too.
  const second = encodeFrame(Frame.OUTPUT, "defg");
  const buffer = new Uint8Array(second);
  assertEquals(reader.push(buffer.subarray(0, 6)), []);
  buffer.fill(0x21);
  buffer.set(second.subarray(6), 0);
  const [held] = reader.push(buffer.subarray(0, second.length - 6));
  assertEquals(decoder.decode(held.payload), "defg");
});

Deno.test("FrameReader: the largest payload is accepted", () => {
  const reader = new FrameReader();
  const frames = reader.push(encodeFrame(Frame.OUTPUT, new Uint8Array(MAX_FRAME_PAYLOAD)));
  assertEquals(frames.length, 1);
  assertEquals(frames[0].payload.length, MAX_FRAME_PAYLOAD);
});

Deno.test("FrameReader: an oversized frame throws as soon as its header arrives", () => {
  const header = new Uint8Array(FRAME_HEADER);
  header[0] = Frame.OUTPUT;
  new DataView(header.buffer).setUint32(1, MAX_FRAME_PAYLOAD + 1);
  const reader = new FrameReader();
  assertEquals(reader.push(header.subarray(0, 3)), []);
  assertThrows(() => reader.push(header.subarray(3)), /^frame of 1048577 bytes is too large$/);
  // Even after good frames in the same chunk.
  const other = new FrameReader();
  assertThrows(
    () => other.push(concat([encodeFrame(Frame.INPUT, "ok"), header])),
    /too large/,
  );
});
