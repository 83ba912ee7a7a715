/**
 * `skiff daemon reload`: re-read the config; panes keep running.
 *
 * @module
 */

import { defineCommand, SkiffError } from "../../lib/cli/mod.ts";
import { tryConnect } from "../../lib/client/mod.ts";

/** The `daemon reload` command. */
export const command = defineCommand({
  name: "reload",
  summary: "Re-read the config; panes keep running",
  description:
    "Re-read projects.toml and drop client connections. Pane processes keep running and keep their generation. A broken config is refused and the old one stays.",
  exits: [["DAEMON", "skiffd is not running"]],
  run: async (ctx) => {
    const client = await tryConnect();
    if (!client) throw new SkiffError("skiffd is not running", { exit: "DAEMON" });
    try {
      const result = await client.call("daemon.reload");
      ctx.out.result(result, () => ctx.out.line("skiffd reloaded its config"));
    } finally {
      client.close();
    }
  },
});
