/**
 * The JSON form of a host's config, for `skiff host … --json`.
 *
 * @module
 */

import type { HostConfig } from "../../lib/hosts/config.ts";

/** A host as `--json` prints it. */
export function hostJson(host: HostConfig): {
  name: string;
  ssh: string;
  skiff: string;
  socket: string | null;
  ssh_options: string[];
} {
  return {
    name: host.name,
    ssh: host.ssh,
    skiff: host.skiff,
    socket: host.socket,
    ssh_options: host.sshOptions,
  };
}
