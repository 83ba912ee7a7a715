/**
 * `skiff daemon restart`: stop skiffd and start it again.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { restartDaemon } from "../../lib/client/mod.ts";

/** The `daemon restart` command. */
export const command = defineCommand({
  name: "restart",
  summary: "Stop and start skiffd; every pane comes back as a new shell",
  exits: [["DAEMON", "skiffd did not stop or start"]],
  run: async (ctx) => {
    const socket = socketPath();
    const outcome = await restartDaemon(socket);
    ctx.out.result(
      { running: true, old_pid: outcome.oldPid ?? null, pid: outcome.pid, socket },
      () => ctx.out.line(`skiffd restarted (pid ${outcome.pid})`),
    );
  },
});
