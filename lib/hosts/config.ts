/**
 * `[hosts.NAME]` in projects.toml: the other machines Skiff reaches over
 * SSH. Each host is read and checked on its own, when it is used, so a
 * mistake in one host's table is one line about that host and never stops
 * local work or the other hosts.
 *
 * ```toml
 * [hosts.gpu1]
 * ssh = "me@gpu1.lab"                 # a destination as ssh takes it; ~/.ssh/config applies
 * skiff = "~/.local/bin/skiff"        # the remote program (default: skiff on the remote PATH)
 * socket = "/run/user/1000/skiff/skiffd.sock"  # the remote socket (default: the remote's own)
 * ssh_options = ["-i", "~/.ssh/gpu"]  # more arguments for ssh
 * ```
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { Config } from "../config/config.ts";
import { HOST_NAME } from "../protocol/hosts.ts";

/** One host, checked, with defaults filled in. */
export interface HostConfig {
  /** The name Skiff knows it by (`gpu1` in `gpu1:reviewer`). */
  name: string;
  /** The SSH destination, as `ssh` takes it: `user@host`, `host`, or an alias of ~/.ssh/config. */
  ssh: string;
  /** The `skiff` program on the host, as its shell finds it (default `skiff`). */
  skiff: string;
  /** The socket of the host's skiffd, on the host; null: the host's default. */
  socket: string | null;
  /** More arguments for `ssh`, before the destination. */
  sshOptions: string[];
}

/** The keys of a `[hosts.NAME]` table. */
export const HOST_KEYS = ["ssh", "skiff", "socket", "ssh_options"] as const;

/** The default `skiff` key: the program on the host's PATH. */
export const DEFAULT_REMOTE_SKIFF = "skiff";

/** Throws exit `USAGE` when `name` cannot be a host's name. */
export function checkHostName(name: string): void {
  if (HOST_NAME.test(name)) return;
  throw new SkiffError(
    `Host name '${name}' may hold only letters, digits, '.', '_' and '-' (at most 64)`,
    { exit: "USAGE" },
  );
}

/** Checks an SSH destination: one word that ssh cannot mistake for an option. */
export function checkDestination(dest: string, where: string): void {
  if (dest === "" || dest.startsWith("-") || /[\s\x00-\x1f]/.test(dest)) {
    throw new SkiffError(
      `${where}: '${dest}' is not an SSH destination: give one word such as user@host or an alias of ~/.ssh/config`,
      { exit: "USAGE" },
    );
  }
}

/** The raw `[hosts]` table of a config, by host name. */
function hostsTable(config: Config): Record<string, unknown> {
  const raw = config.document.hosts;
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw config.places.keyError(["hosts"], "must be a table of [hosts.NAME] tables");
  }
  return raw as Record<string, unknown>;
}

/** The names of the hosts in a config, in file order, checked or not. */
export function hostNames(config: Config): string[] {
  try {
    return Object.keys(hostsTable(config));
  } catch {
    return [];
  }
}

/**
 * Reads and checks host `name`. Throws exit `NOT_FOUND` when the config has
 * no such host, and `USAGE` (naming the key) when its table is wrong.
 */
export function hostConfig(config: Config, name: string): HostConfig {
  const table = hostsTable(config);
  const raw = table[name];
  if (raw === undefined) {
    throw new SkiffError(`No host '${name}'. See 'skiff host ls'`, {
      exit: "NOT_FOUND",
      details: { host: name },
    });
  }
  const places = config.places;
  const key = ["hosts", name];
  const at = (k: string) => [...key, k];
  checkHostName(name);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw places.keyError(key, "must be a table");
  }
  const entry = raw as Record<string, unknown>;
  places.onlyKnown(entry, key, HOST_KEYS);
  if (typeof entry.ssh !== "string") {
    throw places.keyError(at("ssh"), 'must be an SSH destination, such as "me@gpu1.lab"');
  }
  checkDestination(entry.ssh, `${places.at(at("ssh"))}: 'hosts.${name}.ssh'`);
  const skiff = entry.skiff ?? DEFAULT_REMOTE_SKIFF;
  if (typeof skiff !== "string" || skiff.trim() === "" || /[\x00-\x1f]/.test(skiff)) {
    throw places.keyError(at("skiff"), "must be the path or name of skiff on the host");
  }
  let socket: string | null = null;
  if (entry.socket !== undefined) {
    if (typeof entry.socket !== "string" || !entry.socket.startsWith("/")) {
      throw places.keyError(at("socket"), "must be an absolute path on the host");
    }
    socket = entry.socket;
  }
  let sshOptions: string[] = [];
  if (entry.ssh_options !== undefined) {
    if (
      !Array.isArray(entry.ssh_options) ||
      !entry.ssh_options.every((o) => typeof o === "string" && !/[\x00-\x1f]/.test(o))
    ) {
      throw places.keyError(at("ssh_options"), "must be a list of strings");
    }
    sshOptions = entry.ssh_options as string[];
  }
  return { name, ssh: entry.ssh, skiff, socket, sshOptions };
}
