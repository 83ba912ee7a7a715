/**
 * `skiff daemon upgrade`: replace the running skiffd with this program, in
 * place; every pane keeps running.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { keptPanes, quietSkewHint, upgradeDaemon } from "../../lib/client/mod.ts";
import { VERSION } from "../../lib/version.ts";

/** The `daemon upgrade` command. */
export const command = defineCommand({
  name: "upgrade",
  summary: "Replace the running skiffd with this skiff; every pane keeps running",
  description:
    "After installing a newer Skiff (or to move skiffd to another checkout or binary), run the new skiff's 'daemon upgrade': skiffd becomes this program in the same process. Pane processes keep running with the same pids and generations, screens and history stay whole, and attached terminals, the app, 'skiff events' and the watcher reconnect by themselves. The new program is checked first; any failure leaves the old skiffd serving every pane as it was. Linux only.",
  exits: [
    ["DAEMON", "The upgrade was refused or undone; skiffd runs on as it was"],
    ["CONFLICT", "Another upgrade is under way"],
  ],
  run: async (ctx) => {
    // This command moves skiffd to this version: no hint about it.
    quietSkewHint();
    const socket = socketPath();
    const result = await upgradeDaemon({ socket });
    if (!result.running) {
      ctx.out.result(
        { upgraded: false, running: false, version: VERSION, socket },
        () => ctx.out.line(`skiffd is not running; the next command starts skiff ${VERSION}`),
      );
      return;
    }
    const { outcome } = result;
    ctx.out.result(
      {
        upgraded: true,
        running: true,
        from: outcome.from,
        version: outcome.version,
        pid: result.pid,
        panes: outcome.panes,
        running_panes: outcome.running_panes ?? null,
        ms: { ...outcome.ms, total: result.ms },
        unparsed_bytes: outcome.unparsed_bytes ?? 0,
        aside_panes: outcome.aside_panes ?? 0,
        socket,
      },
      () =>
        ctx.out.line(
          `skiffd upgraded ${outcome.from} → ${outcome.version} in place (pid ${result.pid}), ` +
            `${keptPanes(outcome)}; ${result.ms} ms, output stood still ` +
            `${outcome.ms.freeze ?? "?"} ms`,
        ),
    );
  },
});
