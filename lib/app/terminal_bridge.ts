/**
 * One terminal of the page: a WebSocket whose binary messages carry the
 * attach frames of `lib/protocol/frames.ts` both ways. The server attaches
 * to the pane as `skiff attach` does and passes the bytes through; when
 * skiffd drops the connection (a reload), it attaches again and the page
 * gets a fresh redraw. A text message tells the page the pane it got
 * (`{attached: PaneInfo}`) or why it could not (`{error}`).
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon, reconnect } from "../client/connect.ts";
import { codeOf, SkiffError } from "../errors.ts";
import { Frame, FrameReader } from "../protocol/frames.ts";
import { TERMINAL_SCROLLBACK } from "./api.ts";

/** How long to look for skiffd again after it dropped the terminal. */
const REATTACH_MS = 10_000;
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

/** Bridges one WebSocket to one attached pane until either side ends. */
export function bridgeTerminal(ws: WebSocket, socket: string, request: TerminalRequest): void {
  ws.binaryType = "arraybuffer";
  let client: DaemonClient | undefined;
  let closed = false;
  let queued: Uint8Array[] | undefined = [];

  const sendText = (message: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
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

  const attach = async (first: boolean) => {
    // Keys typed while it attaches again wait for it.
    if (!first) queued = [];
    const size = first && request.cols && request.rows
      ? { cols: request.cols, rows: request.rows }
      : {};
    client = first
      ? await connectDaemon({ socket, start: false })
      : await reconnect(REATTACH_MS, socket);
    if (!client) throw new SkiffError("skiffd went away", { exit: "DAEMON" });
    if (closed) return client.close();
    const info = await client.call("attach", {
      pane: request.pane,
      ...size,
      scrollback: first ? TERMINAL_SCROLLBACK : 0,
    }, { raw: true });
    request.pane = info.id;
    sendText({ attached: info });
    const reader = new FrameReader();
    let ended = false;
    const mine = client;
    mine.onRaw((data) => {
      if (data === null) {
        if (closed || ended) return ws.readyState === WebSocket.OPEN && ws.close(1000, "ended");
        // skiffd dropped us (a reload or a restart): attach again.
        attach(false).catch(fail);
        return;
      }
      try {
        ended ||= reader.push(data).some((frame) => frame.type === Frame.END);
      } catch {
        // The page parses the same bytes and says what it makes of them.
      }
      if (ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > SEND_BACKLOG_LIMIT) return ws.close(1013, "the page fell behind");
      ws.send(data);
    });
    for (const data of queued ?? []) await mine.write(data).catch(() => {});
    queued = undefined;
  };

  ws.onmessage = (message) => {
    if (!(message.data instanceof ArrayBuffer)) return;
    const data = new Uint8Array(message.data);
    if (queued) queued.push(data);
    else client?.write(data).catch(() => {});
  };
  ws.onclose = () => {
    closed = true;
    client?.close();
  };
  ws.onopen = () => attach(true).catch(fail);
}
