/**
 * `skiff host add`: add a host to projects.toml.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { addHost } from "../../lib/hosts/edit.ts";
import { hostJson } from "./json.ts";

/** The `host add` command. */
export const command = defineCommand({
  name: "add",
  summary: "Add a host: a name and an SSH destination",
  description:
    "Add [hosts.NAME] to projects.toml. DEST is what you would give ssh (user@host, or a Host of ~/.ssh/config, which applies). Arguments after -- are more ssh options, such as -i KEY or -F FILE. Nothing connects yet: 'skiff host check NAME' does.",
  args: [
    { name: "NAME", required: true, help: "Letters, digits, '.', '_' and '-'" },
    { name: "DEST", required: true, help: "The SSH destination, such as me@gpu1.lab" },
  ],
  options: [
    {
      name: "skiff",
      type: "string",
      value: "PROGRAM",
      help: "The skiff program on the host (default: skiff on its PATH)",
    },
    {
      name: "socket",
      type: "string",
      value: "PATH",
      help: "The socket of the host's skiffd (default: the host's own default)",
    },
  ],
  passthrough: "SSH_OPTIONS…",
  examples: [
    "skiff host add gpu1 me@gpu1.lab",
    "skiff host add gpu1 gpu1 --skiff '~/.local/bin/skiff' -- -i ~/.ssh/gpu1",
  ],
  exits: [["CONFLICT", "A host with that name exists"]],
  run: async (ctx) => {
    const { host, config } = await addHost(ctx.args.NAME, ctx.args.DEST, {
      skiff: ctx.opts.skiff,
      socket: ctx.opts.socket,
      sshOptions: ctx.rest,
    });
    ctx.out.result(
      { host: hostJson(host), config: config.file },
      () =>
        ctx.out.line(
          `Added host ${host.name} (ssh ${host.ssh}); 'skiff host check ${host.name}' tries it`,
        ),
    );
  },
});
