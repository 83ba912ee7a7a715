/**
 * Version skew between this `skiff` and the skiffd it talks to.
 *
 * After `npm install -g` of a newer Skiff, the skiffd that runs is still
 * the old program: every command then tells the person once, on stderr, to
 * move skiffd to this version with `skiff daemon upgrade` (every pane keeps
 * running). When the two speak different protocol versions they cannot talk
 * at all, and the command ends with one line that says which side is older
 * and what to run (exit `PROTOCOL`).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { HelloResult } from "../protocol/daemon.ts";
import { PROTOCOL_VERSION, VERSION } from "../version.ts";

/**
 * Compares two versions such as `0.2.10` and `0.10.1`, part by part as
 * numbers; a pre-release (`1.0.0-rc.1`) comes before its release. Returns a
 * negative number when `a` is older, 0 when equal, positive when newer.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.trim().replace(/^v/, "").split("-", 2);
    return { parts: core.split(".").map((p) => Number.parseInt(p, 10) || 0), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

let older: HelloResult | undefined;
let quiet = false;
const hostLines = new Set<string>();

/** Notes the skiffd a connection greeted; an older one earns the hint. */
export function noteDaemon(server: HelloResult): void {
  if (compareVersions(server.version, VERSION) < 0) older = server;
}

/** Keeps this process from printing the hint (a hook, or a command that shows both versions). */
export function quietSkewHint(): void {
  quiet = true;
}

/** Notes the one line about another host whose Skiff differs (`lib/hosts` words it). */
export function noteHostSkew(line: string): void {
  hostLines.add(line);
}

/**
 * The one-line hint for a skiffd older than this `skiff`, once it was met,
 * and one line per host whose Skiff differs; `undefined` when there is
 * nothing to say, or when the command asked for quiet.
 */
export function skewHint(): string | undefined {
  if (quiet) return undefined;
  const lines = [...hostLines];
  if (older) {
    lines.unshift(
      `skiff: skiffd runs Skiff ${older.version}, older than this skiff (${VERSION}); ` +
        `run 'skiff daemon upgrade' to move it to ${VERSION} (every pane keeps running)`,
    );
  }
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/** What skiffd says of itself when it refuses a client's protocol. */
export interface DaemonProtocol {
  /** The protocol skiffd speaks. */
  protocol: number;
  /** Its Skiff version, when it said. */
  version?: string;
}

/**
 * Reads skiffd's protocol and version from its refusal: the details of a
 * skiffd that sends them, else its message (`skiffd speaks protocol N
 * (Skiff V)`, as every skiffd has said).
 */
export function daemonProtocolOf(
  message: string,
  details: Record<string, unknown> = {},
): DaemonProtocol | undefined {
  if (typeof details.protocol === "number") {
    return {
      protocol: details.protocol,
      ...(typeof details.version === "string" ? { version: details.version } : {}),
    };
  }
  const match = /protocol (\d+) \(Skiff ([^)\s]+)\)/.exec(message);
  return match ? { protocol: Number(match[1]), version: match[2] } : undefined;
}

/**
 * The error for a skiffd that refused this client's protocol: one line that
 * says which side is older and what to run, exit `PROTOCOL`.
 */
export function protocolMismatch(
  message: string,
  details: Record<string, unknown> = {},
): SkiffError {
  const daemon = daemonProtocolOf(message, details);
  const facts = {
    daemon_protocol: daemon?.protocol ?? null,
    daemon_version: daemon?.version ?? null,
  };
  const ours = `this skiff (${VERSION}) speaks protocol ${PROTOCOL_VERSION}`;
  if (!daemon) return new SkiffError(message, { exit: "PROTOCOL", details: facts });
  const theirs = `skiffd (Skiff ${daemon.version ?? "?"}) speaks protocol ${daemon.protocol}`;
  const text = daemon.protocol < PROTOCOL_VERSION
    ? `${theirs}, older than ${ours}: run 'skiff daemon upgrade' to move skiffd to ${VERSION} ` +
      `(every pane keeps running)`
    : `${theirs}, newer than ${ours}: use the newer skiff, or run 'skiff daemon upgrade' with ` +
      `this one to move skiffd back to ${VERSION}`;
  return new SkiffError(text, { exit: "PROTOCOL", details: facts });
}

/**
 * The error for a request skiffd does not know (`Unknown method 'M'`, as
 * every skiffd has said): it runs an older Skiff than this `skiff`, which
 * asked for something added since. Exit `PROTOCOL`, with the method.
 */
export function unknownMethod(message: string): SkiffError {
  const method = /'([^']+)'/.exec(message)?.[1] ?? null;
  const text = method === null ? message : `skiffd does not know '${method}': it runs an older ` +
    `Skiff than this skiff (${VERSION}); run 'skiff daemon upgrade' to move it to ${VERSION} ` +
    `(every pane keeps running)`;
  return new SkiffError(text, { exit: "PROTOCOL", details: { method } });
}
