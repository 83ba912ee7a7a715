/**
 * `skiff daemon restart`: stop skiffd and start it again.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { keptPanes, restartDaemon, upgradeDaemon } from "../../lib/client/mod.ts";

/** The `daemon restart` command. */
export const command = defineCommand({
  name: "restart",
  summary: "Stop and start skiffd; every pane comes back as a new shell",
  description:
    "Stops skiffd, which ends every pane's processes, and starts it again: each pane comes back as a new shell. With --keep-panes, skiffd runs its own program again in place instead, as 'skiff daemon upgrade' does: every pane keeps running.",
  options: [
    {
      name: "keep-panes",
      type: "boolean",
      help: "Restart in place, keeping every pane's processes (Linux)",
    },
  ],
  exits: [["DAEMON", "skiffd did not stop or start, or the restart in place was undone"]],
  run: async (ctx) => {
    const socket = socketPath();
    if (ctx.opts["keep-panes"]) {
      const result = await upgradeDaemon({ socket, sameProgram: true });
      if (!result.running) {
        ctx.out.result(
          { running: false, restarted: false, socket },
          () => ctx.out.line("skiffd is not running"),
        );
        return;
      }
      ctx.out.result(
        {
          running: true,
          kept_panes: true,
          pid: result.pid,
          panes: result.outcome.panes,
          running_panes: result.outcome.running_panes ?? null,
          ms: { ...result.outcome.ms, total: result.ms },
          socket,
        },
        () =>
          ctx.out.line(
            `skiffd restarted in place (pid ${result.pid}), ${keptPanes(result.outcome)}; ` +
              `${result.ms} ms`,
          ),
      );
      return;
    }
    const outcome = await restartDaemon(socket);
    ctx.out.result(
      { running: true, old_pid: outcome.oldPid ?? null, pid: outcome.pid, socket },
      () => ctx.out.line(`skiffd restarted (pid ${outcome.pid})`),
    );
  },
});
