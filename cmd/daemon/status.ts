/**
 * `skiff daemon status`: whether skiffd runs, its pid, uptime and panes.
 *
 * @module
 */

import { defineCommand, Exit } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { tryConnect } from "../../lib/client/mod.ts";
import { age } from "../../lib/client/format.ts";

/** The `daemon status` command. */
export const command = defineCommand({
  name: "status",
  summary: "Show whether skiffd runs, its pid, uptime and panes",
  exits: [["DAEMON", "skiffd is not running"]],
  run: async (ctx) => {
    const socket = socketPath();
    const client = await tryConnect(socket);
    if (!client) {
      ctx.out.result({ running: false, socket }, () => ctx.out.line("skiffd is not running"));
      return Exit.DAEMON;
    }
    try {
      const s = await client.call("daemon.status");
      ctx.out.result({ running: true, ...s }, () => {
        const panes = s.panes === 1 ? "1 pane" : `${s.panes} panes`;
        ctx.out.line(
          `skiffd ${s.version} running, pid ${s.pid}, up ${age(s.uptime_ms)}, ` +
            `${panes} (${s.running_panes} running), socket ${s.socket}`,
        );
        if (s.workspace_error) {
          ctx.out.line(`the workspace is not saved: ${s.workspace_error}; see ${s.log}`);
        }
      });
    } finally {
      client.close();
    }
  },
});
