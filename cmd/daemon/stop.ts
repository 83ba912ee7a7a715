/**
 * `skiff daemon stop`: stop skiffd.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { stopDaemon } from "../../lib/client/mod.ts";

/** The `daemon stop` command. */
export const command = defineCommand({
  name: "stop",
  summary: "Stop skiffd; panes come back as new shells at the next start",
  exits: [["DAEMON", "skiffd did not stop in time"]],
  run: async (ctx) => {
    const socket = socketPath();
    const outcome = await stopDaemon(socket);
    if (!outcome.wasRunning) {
      ctx.out.result(
        { running: false, stopped: false, socket },
        () => ctx.out.line("skiffd is not running"),
      );
      return;
    }
    ctx.out.result(
      { running: false, stopped: true, pid: outcome.pid, socket },
      () => ctx.out.line(`skiffd stopped (pid ${outcome.pid})`),
    );
  },
});
