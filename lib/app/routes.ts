/**
 * The app's HTTP side: every request needs the token (401 and no data
 * without it), every WebSocket also the app's own Origin (403). The page
 * and its assets are built into the program (`lib/assets`); the only files
 * read from disk are the ledger rows' result files, each by its row's uid.
 *
 * @module
 */

import {
  APP_CSS,
  APP_DIFF_JS,
  APP_HTML,
  APP_JS,
  DIFF2HTML_CSS,
  XTERM_CSS,
  XTERM_FIT_JS,
  XTERM_JS,
} from "../assets/mod.ts";
import { SkiffError } from "../errors.ts";
import { openAgentLedger } from "../skipper/ledger.ts";
import type { Gate } from "./auth.ts";
import { type ControlOptions, serveControl } from "./control.ts";
import { LEDGER_READ_WAIT_MS } from "./handlers.ts";
import { bridgeTerminal } from "./terminal_bridge.ts";

/** A built-in file the server sends. */
interface Asset {
  /** Its text. */
  body: string;
  /** Its content type. */
  type: string;
}

const ASSETS: Record<string, Asset> = {
  "/": { body: APP_HTML, type: "text/html; charset=utf-8" },
  "/app.js": { body: APP_JS, type: "text/javascript; charset=utf-8" },
  "/app.css": { body: APP_CSS, type: "text/css; charset=utf-8" },
  "/vendor/xterm.mjs": { body: XTERM_JS, type: "text/javascript; charset=utf-8" },
  "/vendor/addon-fit.mjs": { body: XTERM_FIT_JS, type: "text/javascript; charset=utf-8" },
  "/vendor/xterm.css": { body: XTERM_CSS, type: "text/css; charset=utf-8" },
  "/diff.js": { body: APP_DIFF_JS, type: "text/javascript; charset=utf-8" },
  "/vendor/diff2html.css": { body: DIFF2HTML_CSS, type: "text/css; charset=utf-8" },
};

/** The page's inline import map, which the Content-Security-Policy allows by its hash. */
async function importMapHash(): Promise<string> {
  const map = APP_HTML.match(/<script type="importmap">([\s\S]*?)<\/script>/)?.[1] ?? "";
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(map));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/** Options for {@linkcode appRoutes}. */
export interface RoutesOptions extends ControlOptions {
  /** The token's checks. */
  gate: Gate;
  /** Hears of each WebSocket opened, so the server can close them when it stops. */
  opened?: (socket: WebSocket) => void;
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  });
}

/** The text of a ledger row's result file. */
function resultFile(uid: string): Response {
  if (!/^[0-9a-f]{8}$/.test(uid)) return plain(404, "No such task");
  let path: string;
  try {
    using ledger = openAgentLedger({ timeout: LEDGER_READ_WAIT_MS });
    path = ledger.get(uid).result;
  } catch (error) {
    if (error instanceof SkiffError && error.exit === "NOT_FOUND") {
      return plain(404, "No such task");
    }
    throw error;
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return plain(404, `No result file yet: ${path}`);
    return plain(500, `Cannot read ${path}: ${(error as Error).message}`);
  }
  return new Response(text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "x-skiff-path": encodeURIComponent(path),
    },
  });
}

/** Makes the request handler. */
export async function appRoutes(
  options: RoutesOptions,
): Promise<(request: Request) => Response> {
  const { gate } = options;
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'sha256-${await importMapHash()}'`,
    // xterm.js sets styles of its own at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const secure = {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  };
  return (request) => {
    const url = new URL(request.url);
    // Opening the printed URL: the token moves into a cookie and out of the address bar.
    if (url.pathname === "/" && url.searchParams.has("token")) {
      if (!gate.matches(url.searchParams.get("token"))) return plain(401, "Unauthorized");
      return new Response(null, {
        status: 303,
        headers: { ...secure, location: "/", "set-cookie": gate.setCookie() },
      });
    }
    const verdict = gate.check(request);
    if (verdict === "no-token") {
      return plain(401, "Unauthorized: open the address 'skiff app' prints", secure);
    }
    if (verdict === "foreign-origin") {
      return plain(403, "Forbidden: not the app's own page", secure);
    }
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      if (url.pathname === "/ws") {
        const { socket, response } = Deno.upgradeWebSocket(request);
        options.opened?.(socket);
        serveControl(socket, options);
        return response;
      }
      if (url.pathname === "/ws/terminal") {
        const pane = url.searchParams.get("pane");
        if (!pane) return plain(400, "Which pane?", secure);
        const size = (name: string) => {
          const n = Number(url.searchParams.get(name));
          return Number.isInteger(n) && n >= 2 && n <= 1000 ? n : undefined;
        };
        const { socket, response } = Deno.upgradeWebSocket(request);
        options.opened?.(socket);
        bridgeTerminal(socket, options.socket, { pane, cols: size("cols"), rows: size("rows") });
        return response;
      }
      return plain(404, "Not found", secure);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return plain(405, "Method not allowed", secure);
    }
    const result = url.pathname.match(/^\/result\/([^/]+)$/);
    if (result) {
      const response = resultFile(result[1]);
      for (const [key, value] of Object.entries(secure)) response.headers.set(key, value);
      return response;
    }
    const asset = Object.hasOwn(ASSETS, url.pathname) ? ASSETS[url.pathname] : undefined;
    if (!asset) return plain(404, "Not found", secure);
    return new Response(asset.body, { headers: { ...secure, "content-type": asset.type } });
  };
}
