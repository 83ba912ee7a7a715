/**
 * Reading the host's end of a link: the line `skiff host remote` prints
 * (see `describe.ts`), its version, and what a skew between the two Skiffs
 * means. Every command that names a host goes through here, so it loads no
 * config and no agent profiles.
 *
 * A host whose `skiff` has no such command is older than hosts: the link
 * asks its `skiff --version` and refuses it with that version named.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { RemoteInfo } from "../protocol/hosts.ts";
import { VERSION } from "../version.ts";

/** The marker of `skiff host remote`'s line, and the version of its shape. */
export const REMOTE_MARK = "skiff_host";

/** The oldest Skiff that can be a host: the first with `skiff host remote`. */
export const OLDEST_HOST_VERSION = "0.1.0";

/** Reads the line `skiff host remote` printed; `undefined` when it is not one. */
export function parseRemoteInfo(stdout: string): RemoteInfo | undefined {
  for (const line of stdout.split("\n").reverse()) {
    if (!line.includes(REMOTE_MARK)) continue;
    try {
      const value = JSON.parse(line);
      if (
        value?.[REMOTE_MARK] === 1 && typeof value.socket === "string" &&
        typeof value.protocol === "number" && typeof value.version === "string"
      ) {
        return {
          version: value.version,
          protocol: value.protocol,
          daemon_version: String(value.daemon_version ?? value.version),
          pid: Number(value.pid),
          socket: value.socket,
          started: value.started === true,
          agents: Array.isArray(value.agents) ? value.agents : [],
        };
      }
    } catch {
      // Not the line.
    }
  }
  return undefined;
}

/** Reads the version out of `skiff --version` (`skiff 0.1.0`) or its JSON form. */
export function parseVersion(stdout: string): string | undefined {
  const json = /"version"\s*:\s*"([^"]+)"/.exec(stdout);
  if (json) return json[1];
  return /skiff\s+v?([0-9][^\s]*)/.exec(stdout)?.[1];
}

/** The refusal of a host whose Skiff has no `skiff host remote`. */
export function tooOld(host: string, version: string | undefined): SkiffError {
  const which = version ? `Skiff ${version}` : "a Skiff that does not say its version";
  return new SkiffError(
    `Host ${host} runs ${which}, too old to be a host (it has no 'skiff host remote'; hosts need Skiff ${OLDEST_HOST_VERSION} or newer): upgrade Skiff on ${host}`,
    { exit: "PROTOCOL", details: { host, remote_version: version ?? null } },
  );
}

/** The refusal of a host whose skiffd speaks another protocol than this skiff. */
export function otherProtocol(host: string, remote: RemoteInfo, ours: number): SkiffError {
  const theirs =
    `Host ${host}'s skiffd (Skiff ${remote.daemon_version}) speaks protocol ${remote.protocol}`;
  const mine = `this skiff (${VERSION}) speaks protocol ${ours}`;
  const text = remote.protocol < ours
    ? `${theirs}, older than ${mine}: upgrade Skiff on ${host}, then run 'skiff daemon upgrade' there`
    : `${theirs}, newer than ${mine}: upgrade Skiff here`;
  return new SkiffError(text, {
    exit: "PROTOCOL",
    details: {
      host,
      remote_version: remote.daemon_version,
      remote_protocol: remote.protocol,
      protocol: ours,
    },
  });
}

/**
 * The one line about a host whose Skiff differs from this one but speaks the
 * same protocol (it works; the person may want to upgrade one side), or
 * `undefined` when both run the same version.
 */
export function skewLine(host: string, remote: RemoteInfo): string | undefined {
  if (remote.daemon_version === VERSION) return undefined;
  return `host ${host}'s skiffd runs Skiff ${remote.daemon_version} and this skiff ${VERSION}; both speak protocol ${remote.protocol}, so they work together`;
}
