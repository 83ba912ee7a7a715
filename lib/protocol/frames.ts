/**
 * The framed byte stream of an attached connection.
 *
 * After a successful `attach` answer the connection carries frames: one type
 * byte, a 4-byte big-endian length, then the payload.
 *
 * @module
 */

import { joinBytes } from "../platform/bytes.ts";

/** Frame types. Output flows from skiffd; input, resize and detach flow to it. */
export const Frame = {
  /** skiffd → client: bytes for the terminal. */
  OUTPUT: 0x6f, // "o"
  /**
   * skiffd → client: the attach ends; JSON payload {@linkcode AttachEnd}.
   * With `returning`, a skiffd serves the pane again soon (a reload, a
   * restart, an upgrade): the client answers with `DETACH`, so skiffd knows it
   * has read every input frame sent before, then attaches again.
   */
  END: 0x78, // "x"
  /** client → skiffd: typed bytes. */
  INPUT: 0x69, // "i"
  /** client → skiffd: JSON payload `{cols, rows}`. */
  RESIZE: 0x72, // "r"
  /** client → skiffd: leave, the pane keeps running. */
  DETACH: 0x71, // "q"
  /** client → skiffd: send a full redraw of the screen now (after a pager or a notice). */
  REDRAW: 0x64, // "d"
} as const;

/** The payload of an `END` frame. */
export interface AttachEnd {
  /**
   * Why: `detached`, `exited`, `killed`, `daemon stopped`, or `reload` (the
   * connection is dropped, the pane keeps running).
   */
  reason: string;
  /** A skiffd serves the pane again soon: attach again to follow it. */
  returning?: boolean;
}

/** The header size in bytes. */
export const FRAME_HEADER = 5;

/** The largest payload accepted. */
export const MAX_FRAME_PAYLOAD = 1 << 20;

/** Encodes one frame. */
export function encodeFrame(type: number, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const frame = new Uint8Array(FRAME_HEADER + body.length);
  frame[0] = type;
  new DataView(frame.buffer).setUint32(1, body.length);
  frame.set(body, FRAME_HEADER);
  return frame;
}

/** Reassembles frames from a byte stream. */
export class FrameReader {
  #buffer = new Uint8Array(0);

  /** Feeds bytes; returns every complete frame. Throws on an oversized frame. */
  push(chunk: Uint8Array): { type: number; payload: Uint8Array }[] {
    const joined = joinBytes([this.#buffer, chunk]);
    const frames: { type: number; payload: Uint8Array }[] = [];
    let offset = 0;
    while (joined.length - offset >= FRAME_HEADER) {
      const length = new DataView(joined.buffer, joined.byteOffset + offset + 1, 4).getUint32(0);
      if (length > MAX_FRAME_PAYLOAD) throw new Error(`frame of ${length} bytes is too large`);
      if (joined.length - offset < FRAME_HEADER + length) break;
      frames.push({
        type: joined[offset],
        payload: joined.slice(offset + FRAME_HEADER, offset + FRAME_HEADER + length),
      });
      offset += FRAME_HEADER + length;
    }
    this.#buffer = joined.slice(offset);
    return frames;
  }
}
