/**
 * The app's address, kept in the state folder so the URL stays the same
 * across restarts of skiffd: its loopback port and its token, in one file
 * that only its owner may read (0600). Each socket has its own file, beside
 * its workspace: `skiffd.sock` gives `skiffd.app.json`.
 *
 * @module
 */

import { dirname, join } from "../platform/path.ts";
import { runtimeFiles, socketPath, stateDir } from "../config/paths.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";

/** What the file keeps. */
export interface AppAddress {
  /** The port on 127.0.0.1. */
  port: number;
  /** The token every request must carry: 64 hex characters. */
  token: string;
}

/** The lowest and highest port the app picks by itself: below Linux's ephemeral range. */
export const PORT_RANGE = { low: 20000, high: 29999 } as const;

/** The file of the app served by the skiffd on `socket`. */
export function appFile(socket: string = socketPath()): string {
  return join(stateDir(), `${runtimeFiles(socket).stem}.app.json`);
}

/** A new random token. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random port in {@linkcode PORT_RANGE}. */
export function randomPort(): number {
  return PORT_RANGE.low + Math.floor(Math.random() * (PORT_RANGE.high - PORT_RANGE.low + 1));
}

/** Whether `port` is a port a user may choose. */
export function isPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;
}

/** Reads the file; a missing or unreadable one gives `undefined`. */
export function readAppAddress(file: string): AppAddress | undefined {
  try {
    const data = JSON.parse(Deno.readTextFileSync(file));
    if (
      isPort(data?.port) && typeof data?.token === "string" && /^[0-9a-f]{64}$/.test(data.token)
    ) {
      return { port: data.port, token: data.token };
    }
  } catch {
    // Missing or damaged: a new address is made.
  }
  return undefined;
}

/** Writes the file, readable by its owner only. */
export function writeAppAddress(file: string, address: AppAddress): void {
  ensureDir(dirname(file), 0o700);
  writeFileAtomic(file, JSON.stringify(address, null, 2) + "\n", { mode: 0o600 });
}
