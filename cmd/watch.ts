/**
 * `skiff watch`: the watcher. Skiff starts it; people rarely do.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/mod.ts";
import { runtimeFiles } from "../lib/config/paths.ts";

/** The `watch` command. */
export const command = defineCommand({
  name: "watch",
  summary: "Wake the Skiff agent when its tasks' panes have news (Skiff starts it)",
  description:
    "Follow the panes of the ledger's open tasks and type a line for the Skiff agent into its pane when one ends a turn, goes idle after a prompt, is idle with a pending task, exits, is gone, or restarted after the send; only while the agent is idle with an empty input box and nobody types. Approvals and bells become desktop notifications (notify-send, osascript). Skiff starts the watcher when it starts or finds the Skiff agent's session, one per skiffd; it logs one line per action to the .watch.log beside the socket and stops when the Skiff agent's session ends.",
  options: [{ name: "no-notify", type: "boolean", help: "No desktop notifications" }],
  exits: [["DAEMON", "skiffd is not running"]],
  run: async (ctx) => {
    const { watch } = await import("../lib/watch/run.ts");
    const outcome = await watch({ notify: !ctx.opts["no-notify"] });
    const log = runtimeFiles().watchLog;
    if (!outcome.ran) {
      ctx.out.result(
        { running: true, already: true, pid: outcome.pid, log },
        () =>
          ctx.out.line(
            `A watcher already runs${outcome.pid ? ` (pid ${outcome.pid})` : ""}; see ${log}`,
          ),
      );
      return;
    }
    ctx.out.result(
      { stopped: outcome.stop, log },
      () => ctx.out.line(`The watcher stopped: ${outcome.stop}; see ${log}`),
    );
  },
});
