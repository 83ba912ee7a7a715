/**
 * The page's control socket: it asks (the methods of `api.ts`) and hears
 * skiffd's events. Each page has its own connections to skiffd, one for its
 * requests and one for its events.
 *
 * @module
 */

import { codeOf, SkiffError } from "../errors.ts";
import type { ApiAnswer, ApiMethodName } from "./api.ts";
import { DaemonLink } from "./daemon_link.ts";
import { forwardEvents } from "./events_bridge.ts";
import type { Follow } from "./follow.ts";
import { type Handlers, pageHandlers } from "./handlers.ts";

/** Options for {@linkcode serveControl}. */
export interface ControlOptions {
  /** skiffd's socket. */
  socket: string;
  /** Writes a line to skiffd's log. */
  log: (line: string) => void;
  /** The files the pages follow; without it, pages hear only skiffd's events. */
  follow?: Follow;
}

function errorBody(error: unknown): NonNullable<ApiAnswer["error"]> {
  if (error instanceof SkiffError) {
    const details = Object.keys(error.details).length > 0 ? { details: error.details } : {};
    return { code: codeOf(error.exit), message: error.message, ...details };
  }
  return { code: "error", message: (error as Error)?.message ?? String(error) };
}

/** Serves one page's control socket until it closes. */
export function serveControl(ws: WebSocket, options: ControlOptions): void {
  const link = new DaemonLink(options.socket);
  const send = (message: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  const member = options.follow?.join(send);
  const handlers: Handlers = pageHandlers(link, { member });
  const feed = forwardEvents({
    socket: options.socket,
    send: (message) => {
      // A host's link came up or went: the hosts' group follows it now, not at its next look.
      const event = message as { event?: unknown; host?: unknown };
      if (event.event === "host" && typeof event.host === "string") {
        options.follow?.linkChanged(event.host);
      }
      send(message);
    },
    lost: (why) => {
      send({ lost: why });
      if (ws.readyState === WebSocket.OPEN) ws.close(1011, "skiffd went away");
    },
  });

  ws.onmessage = async (message) => {
    if (typeof message.data !== "string") return;
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(message.data);
    } catch {
      return send({ id: null, error: { code: "bad_frame", message: "Not JSON" } });
    }
    const id = typeof request.id === "number" ? request.id : null;
    const method = typeof request.method === "string" && Object.hasOwn(handlers, request.method)
      ? request.method as ApiMethodName
      : undefined;
    if (id === null || !method) {
      return send({
        id,
        error: { code: "bad_request", message: `Unknown request ${String(request.method)}` },
      });
    }
    const params = typeof request.params === "object" && request.params !== null
      ? request.params as Record<string, unknown>
      : {};
    try {
      send({ id, result: await handlers[method](params) });
    } catch (error) {
      if (!(error instanceof SkiffError)) {
        options.log(`app: ${method} failed: ${(error as Error)?.stack ?? error}`);
      }
      send({ id, error: errorBody(error) });
    }
  };
  ws.onclose = () => {
    member?.leave();
    feed.stop();
    link.close();
  };
}
