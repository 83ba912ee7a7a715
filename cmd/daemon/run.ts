/**
 * `skiff daemon run`: run skiffd in the foreground.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { runtimeFiles } from "../../lib/config/paths.ts";

/** The `daemon run` command. */
export const command = defineCommand({
  name: "run",
  summary: "Run skiffd in the foreground",
  description:
    "Run skiffd in this terminal until it is stopped. Other commands start it detached on their own; use this to watch it or run it under a service manager.",
  exits: [["DAEMON", "skiffd could not start"]],
  run: async (ctx) => {
    const { runDaemon } = await import("../../lib/daemon/mod.ts");
    // The app's server and the links to other hosts run inside skiffd; skiffd itself knows
    // nothing of either.
    const { appService } = await import("../../lib/app/mod.ts");
    const { hostsService } = await import("../../lib/hosts/service.ts");
    const outcome = await runDaemon({ services: [appService(), hostsService()] });
    if (outcome.alreadyRunning) {
      const socket = runtimeFiles().socket;
      ctx.out.result(
        { running: true, already: true, socket },
        () => ctx.out.line(`skiffd is already running (socket ${socket})`),
      );
    }
  },
});
