/**
 * `skiff host ls`: the hosts of projects.toml and their links.
 *
 * @module
 */

import { defineCommand, table } from "../../lib/cli/mod.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { tryConnect } from "../../lib/client/connect.ts";
import { hostConfig, hostNames } from "../../lib/hosts/config.ts";
import type { HostListing } from "../../lib/protocol/hosts.ts";

/** The `host ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List hosts and their links",
  description:
    "List the hosts of projects.toml: name, SSH destination, the skiff program and socket on the host, and where the local skiffd's link to it stands (idle, connecting, up, unreachable or refused, with why). Asks a running skiffd; starts nothing and connects to no host.",
  run: async (ctx) => {
    const config = loadConfig();
    const links = new Map<string, HostListing>();
    const client = await tryConnect();
    if (client) {
      try {
        const { hosts } = await client.call("hosts.list", { wait_ms: 0 });
        for (const host of hosts) links.set(host.host, host);
      } finally {
        client.close();
      }
    }
    const hosts = hostNames(config).map((name) => {
      const link = links.get(name);
      let conf: ReturnType<typeof hostConfig> | undefined;
      let problem: string | null = null;
      try {
        conf = hostConfig(config, name);
      } catch (error) {
        problem = (error as Error).message;
      }
      return {
        name,
        ssh: conf?.ssh ?? link?.ssh ?? null,
        skiff: conf?.skiff ?? null,
        socket: conf?.socket ?? null,
        ssh_options: conf?.sshOptions ?? [],
        link: problem ? "refused" : link?.state ?? "idle",
        why: problem ?? link?.why ?? null,
        since: link?.since ?? null,
        version: link?.remote?.daemon_version ?? null,
      };
    });
    ctx.out.result({ hosts, config: config.file }, () => {
      if (hosts.length === 0) {
        ctx.out.line("No hosts. Add one with 'skiff host add NAME DEST'.");
        return;
      }
      ctx.out.line(table(
        ["NAME", "SSH", "SKIFF", "SOCKET", "LINK", "VERSION"],
        hosts.map((h) => [
          h.name,
          h.ssh ?? "-",
          h.skiff ?? "-",
          h.socket ?? "(default)",
          h.why && h.link !== "up" ? `${h.link}: ${h.why}` : h.link,
          h.version ?? "-",
        ]),
      ));
    });
  },
});
