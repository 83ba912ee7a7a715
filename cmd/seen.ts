/**
 * `skiff seen`: clear a pane's unread flag.
 *
 * @module
 */

import { arg, type CommandSpec } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `seen` command. */
export const command: CommandSpec = {
  name: "seen",
  summary: "Mark a pane seen: clear its unread flag",
  description:
    "A turn end, an idle after a prompt with no turn, a wait, a bell and an exit set a pane's unread flag. It stays until this command (or the app) clears it.",
  args: [{ name: "PANE", required: true, help: "Pane id, name, or project/name" }],
  exitCodes: [[3, "No such pane"], [4, "skiffd could not be reached"]],
  run: async (ctx) => {
    const result = await withDaemon((client) =>
      client.call("pane.seen", { pane: arg(ctx, "PANE") })
    );
    ctx.out.result(result, () => {});
  },
};
