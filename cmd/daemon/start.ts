/**
 * `skiff daemon start`: start skiffd in the background.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { startDaemon, tryConnect } from "../../lib/client/mod.ts";

/** The `daemon start` command. */
export const command = defineCommand({
  name: "start",
  summary: "Start skiffd in the background",
  exits: [["DAEMON", "skiffd could not start"]],
  run: async (ctx) => {
    const socket = socketPath();
    const existing = await tryConnect(socket);
    const client = existing ?? await startDaemon(socket);
    const pid = client.server?.pid;
    client.close();
    ctx.out.result({ running: true, started: !existing, pid, socket }, () =>
      ctx.out.line(
        existing ? `skiffd is already running (pid ${pid})` : `skiffd started (pid ${pid})`,
      ));
  },
});
