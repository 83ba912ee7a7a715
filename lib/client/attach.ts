/**
 * Attaching this terminal to a pane: raw mode, redraw, resizes, and
 * Ctrl+\ to detach. When skiffd drops the connection for a reload, the
 * terminal attaches again on its own.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { writeAllSync } from "../platform/bytes.ts";
import { encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";
import type { DaemonClient } from "./client.ts";
import { connectDaemon, reconnect } from "./connect.ts";

/** The detach key: Ctrl+\ as a plain byte. */
const DETACH_BYTE = 0x1c;
/** Ctrl+\ as the kitty keyboard protocol encodes it. */
const DETACH_KITTY = "\x1b[92;5u";
const REATTACH_MS = 10_000;

/** Leaves the alternate screen and undoes modes a program may have set. */
const RESET = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>" +
  "\x1b[<u\x1b[?25h\x1b[0m\x1b[?1049l";

/** How an attach ended. */
export interface AttachOutcome {
  /** `detached`, `exited`, `killed`, `daemon stopped` or `lost`. */
  reason: string;
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
}

/**
 * This terminal's size, or nothing when it does not know (some report 0×0):
 * then the pane keeps its size rather than shrinking to nothing.
 */
function size(): { cols: number; rows: number } | Record<string, never> {
  try {
    const { columns, rows } = Deno.consoleSize();
    return columns >= 2 && rows >= 2 ? { cols: columns, rows } : {};
  } catch {
    return {};
  }
}

function findDetach(data: Uint8Array): number {
  const byte = data.indexOf(DETACH_BYTE);
  if (byte !== -1) return byte;
  const text = new TextDecoder().decode(data);
  const kitty = text.indexOf(DETACH_KITTY);
  return kitty === -1 ? -1 : new TextEncoder().encode(text.slice(0, kitty)).length;
}

/** One attached session on one connection; resolves with the reason it ended. */
function attachOnce(client: DaemonClient, pane: string): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FrameReader();
    let done = false;
    const finish = (reason: string) => {
      if (done) return;
      done = true;
      resolve(reason);
    };
    client.onRaw((data) => {
      if (data === null) return finish("lost");
      let frames;
      try {
        frames = reader.push(data);
      } catch {
        return finish("lost");
      }
      for (const frame of frames) {
        if (frame.type === Frame.OUTPUT) {
          writeAllSync(Deno.stdout, frame.payload);
        } else if (frame.type === Frame.END) {
          let reason = "detached";
          try {
            reason = JSON.parse(new TextDecoder().decode(frame.payload)).reason ?? reason;
          } catch {
            // Keep the default.
          }
          return finish(reason);
        }
      }
    });
    const onResize = () => {
      const now = size();
      if (done || !("cols" in now)) return;
      client.write(encodeFrame(Frame.RESIZE, JSON.stringify(now))).catch(() => {});
    };
    try {
      Deno.addSignalListener("SIGWINCH", onResize);
    } catch {
      // No SIGWINCH here: the size stays as it was at attach.
    }
    (async () => {
      const buffer = new Uint8Array(16 * 1024);
      while (!done) {
        const n = await Deno.stdin.read(buffer);
        if (n === null || done) break;
        const data = buffer.slice(0, n);
        const cut = findDetach(data);
        if (cut === -1) {
          await client.write(encodeFrame(Frame.INPUT, data)).catch(() => {});
          continue;
        }
        if (cut > 0) {
          await client.write(encodeFrame(Frame.INPUT, data.subarray(0, cut))).catch(() => {});
        }
        await client.write(encodeFrame(Frame.DETACH, "")).catch(() => {});
        break;
      }
    })();
    void pane;
  });
}

/**
 * Attaches the current terminal to `pane` until the person detaches or the
 * pane ends.
 */
export async function attachTerminal(pane: string): Promise<AttachOutcome> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new SkiffError("skiff attach needs a terminal on stdin and stdout", { exit: "USAGE" });
  }
  let client = await connectDaemon();
  let info = await client.call(
    "attach",
    { pane, ...size() },
    { raw: true },
  );
  Deno.stdin.setRaw(true, { cbreak: false });
  writeAllSync(Deno.stdout, new TextEncoder().encode("\x1b[?1049h"));
  let reason: string;
  try {
    for (;;) {
      reason = await attachOnce(client, info.id);
      client.close();
      if (reason !== "lost") break;
      // skiffd dropped us (a reload or a restart): attach again to the same pane.
      const again = await reconnect(REATTACH_MS);
      if (!again) break;
      client = again;
      try {
        info = await client.call("attach", { pane: info.id, ...size() }, { raw: true });
      } catch {
        reason = "gone";
        break;
      }
    }
  } finally {
    writeAllSync(Deno.stdout, new TextEncoder().encode(RESET));
    Deno.stdin.setRaw(false);
  }
  return { reason, pane: info.id, name: info.name };
}
