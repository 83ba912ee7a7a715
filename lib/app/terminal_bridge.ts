/**
 * One terminal of the page: a WebSocket whose binary messages carry the
 * attach frames of `lib/protocol/frames.ts` both ways. The server attaches
 * to the pane as `skiff attach` does, through an {@linkcode AttachLink}:
 * when skiffd reloads, it attaches again and the page gets a fresh redraw,
 * and keys typed meanwhile go in after it. A text message tells the page
 * the pane it got and the detach key of `[attach]` (`{attached: PaneInfo,
 * detach_key}`, again after each new attach) or why it could not
 * (`{error}`).
 *
 * @module
 */

import { AttachLink, type TerminalSize } from "../client/attach_link.ts";
import { type AttachKey, loadConfig } from "../config/config.ts";
import { DEFAULT_DETACH_KEY, parseAttachKey } from "../config/attach_keys.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { codeOf, SkiffError } from "../errors.ts";
import { encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";
import { TERMINAL_SCROLLBACK } from "./api.ts";
import { markLinkSocket } from "../client/client.ts";
import { linkError, linkTo, parsePaneRef } from "../hosts/resolve.ts";

/** A page that has this much unsent is too slow: it is closed and opens again with a redraw. */
const SEND_BACKLOG_LIMIT = 16 << 20;

/** What the page asked for. */
export interface TerminalRequest {
  /** The pane. */
  pane: string;
  /** The page terminal's size, when it knows it. */
  cols?: number;
  /** Rows. */
  rows?: number;
}

/** The detach key of `projects.toml`; the default while the file is broken. */
function detachKey(): AttachKey {
  try {
    return loadConfig().attach.detach;
  } catch {
    return parseAttachKey(DEFAULT_DETACH_KEY) as AttachKey;
  }
}

/** What the page hears when the pane is attached. */
export interface TerminalAttached {
  /** The pane. */
  attached: PaneInfo;
  /** The key that gives the keyboard back to the sidebar (`[attach] detach_key`). */
  detach_key: AttachKey;
}

/** Bridges one WebSocket to one attached pane until either side ends. */
export function bridgeTerminal(ws: WebSocket, socket: string, request: TerminalRequest): void {
  ws.binaryType = "arraybuffer";
  let link: AttachLink | undefined;
  let closed = false;
  /** Frames from the page before the pane was attached. */
  let pending: Uint8Array[] | undefined = [];
  /** Output before the page heard which pane it got. */
  let early: Uint8Array[] | undefined = [];
  let size: TerminalSize | undefined = request.cols && request.rows
    ? { cols: request.cols, rows: request.rows }
    : undefined;
  const fromPage = new FrameReader();

  const sendText = (message: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  const sendFrame = (type: number, payload: Uint8Array | string) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > SEND_BACKLOG_LIMIT) return ws.close(1013, "the page fell behind");
    ws.send(encodeFrame(type, payload));
  };
  const fail = (error: unknown) => {
    const known = error instanceof SkiffError;
    sendText({
      error: {
        code: known ? codeOf(error.exit) : "error",
        message: (error as Error)?.message ?? String(error),
      },
    });
    if (ws.readyState === WebSocket.OPEN) ws.close(1000, "attach failed");
  };
  const onPage = (data: Uint8Array) => {
    let frames;
    try {
      frames = fromPage.push(data);
    } catch {
      return ws.close(1008, "bad frame");
    }
    for (const frame of frames) {
      if (frame.type === Frame.INPUT) {
        link?.input(frame.payload);
      } else if (frame.type === Frame.RESIZE) {
        try {
          const { cols, rows } = JSON.parse(new TextDecoder().decode(frame.payload));
          size = { cols, rows };
          link?.resize(size);
        } catch {
          // skiffd would ignore it too.
        }
      } else if (frame.type === Frame.REDRAW) {
        link?.redraw();
      } else if (frame.type === Frame.DETACH) {
        link?.detach();
      }
    }
  };

  // A pane of another host (HOST:ID) is attached on its host, through the link, which this
  // terminal holds while it is open; the page keeps calling it HOST:ID.
  let host: string | null = null;
  let holder: { close(): void } | undefined;
  const shown = (info: PaneInfo): PaneInfo =>
    host === null ? info : { ...info, id: `${host}:${info.id}`, host } as PaneInfo;
  const open = async () => {
    const address = parsePaneRef(request.pane);
    host = address.host;
    const pane = address.pane;
    let through = socket;
    if (address.host !== null) {
      const held = await linkTo(address.host, { hold: true, start: false });
      holder = held.holder;
      if (held.link.state !== "up" || held.link.socket === null) throw linkError(held.link);
      through = held.link.socket;
      markLinkSocket(through, address.host);
    }
    const opened = await AttachLink.open(pane, {
      socket: through,
      start: false,
      size: () => size,
      scrollback: TERMINAL_SCROLLBACK,
      output: (data) => early ? early.push(data) : sendFrame(Frame.OUTPUT, data),
      reattached: (info) => sendText({ attached: shown(info), detach_key: detachKey() }),
    });
    if (closed) return opened.close();
    link = opened;
    sendText({ attached: shown(link.info), detach_key: detachKey() } satisfies TerminalAttached);
    for (const data of early ?? []) sendFrame(Frame.OUTPUT, data);
    early = undefined;
    for (const data of pending ?? []) onPage(data);
    pending = undefined;
    const end = await link.done;
    if (closed) return;
    if (end.reason === "lost") {
      return fail(
        host === null
          ? new SkiffError("skiffd went away", { exit: "DAEMON" })
          : new SkiffError(`Lost the link to ${host}; the pane keeps running there`, {
            exit: "UNREACHABLE",
          }),
      );
    }
    sendFrame(Frame.END, JSON.stringify({ reason: end.reason }));
    if (ws.readyState === WebSocket.OPEN) ws.close(1000, "ended");
  };

  ws.onmessage = (message) => {
    if (!(message.data instanceof ArrayBuffer)) return;
    const data = new Uint8Array(message.data);
    if (pending) pending.push(data);
    else onPage(data);
  };
  ws.onclose = () => {
    closed = true;
    link?.close();
    holder?.close();
  };
  ws.onopen = () => open().catch(fail);
}
