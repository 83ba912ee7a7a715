/**
 * The app's method of the protocol: `skiff app` asks skiffd where the app
 * is served (and may move it to another port). skiffd answers it through
 * the app service it was started with (`lib/app`); a skiffd started without
 * one says so.
 *
 * @module
 */

import type { HostMethods } from "./hosts.ts";

/** Where the app is served. */
export interface AppStatus {
  /** The page's address with its token, to open in a browser. */
  url: string;
  /**
   * The app's origin, `http://127.0.0.1:PORT`, with no path: the value a
   * browser's `Origin` header holds for the app's page.
   */
  origin: string;
  /** The loopback port. */
  port: number;
  /** The file that keeps the port and the token (0600). */
  file: string;
}

/** The app's methods: name → params and result. */
export interface AppMethods {
  /**
   * Where the app is served, once it serves. With `port`, it moves to that
   * port first (exit `CONFLICT` when the port is taken; the old one stays).
   */
  "app.status": { params: { port?: number }; result: AppStatus };
}

/** The methods skiffd answers through a service it was given, not itself. */
export type ServiceMethodName = keyof AppMethods | keyof HostMethods;
