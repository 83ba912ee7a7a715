/**
 * Who may use the app: a request must carry the token (the cookie the page
 * got when it was opened with `?token=`, or `Authorization: Bearer`), and a
 * WebSocket must also come from the app's own page (its Origin is the
 * address the browser used for the page).
 *
 * The cookie's name comes from a hash of the token, so two apps reached at
 * the same host name (two `ssh -L` forwards to `localhost`) keep apart.
 *
 * @module
 */

/** What a request may do. */
export type Verdict = "ok" | "no-token" | "foreign-origin";

/** Compares two strings in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function cookies(request: Request): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) jar.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return jar;
}

/** The app's token and the checks made with it. */
export class Gate {
  /** The cookie that carries the token. */
  readonly cookie: string;
  readonly #token: string;

  private constructor(token: string, cookie: string) {
    this.#token = token;
    this.cookie = cookie;
  }

  /** Makes the gate for `token`. */
  static async create(token: string): Promise<Gate> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    return new Gate(token, `skiff-${hex.slice(0, 12)}`);
  }

  /** Whether `candidate` is the token. */
  matches(candidate: string | null | undefined): boolean {
    return typeof candidate === "string" && sameText(candidate, this.#token);
  }

  /** Whether the request carries the token, in its cookie or an `Authorization` header. */
  carriesToken(request: Request): boolean {
    const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    return this.matches(bearer) || this.matches(cookies(request).get(this.cookie));
  }

  /**
   * Checks a request. A WebSocket must also come from the page this app
   * served: its Origin must name the host the browser asked for.
   */
  check(request: Request): Verdict {
    if (!this.carriesToken(request)) return "no-token";
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket" && !sameOrigin(request)) {
      return "foreign-origin";
    }
    return "ok";
  }

  /** The `Set-Cookie` value that gives a browser the token. */
  setCookie(): string {
    return `${this.cookie}=${this.#token}; Path=/; HttpOnly; SameSite=Strict`;
  }
}

/** Whether the request's Origin is `http://` and the host the request was sent to. */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  if (!origin || !host) return false;
  return origin === `http://${host}`;
}
