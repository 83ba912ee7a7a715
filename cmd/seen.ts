/**
 * `skiff seen`: clear a pane's unread flag.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { markSeen } from "../lib/ops/mark_seen.ts";
import { paneLabel } from "../lib/hosts/resolve.ts";

/** The `seen` command. */
export const command = defineCommand({
  name: "seen",
  summary: "Mark a pane seen: clear its unread flag",
  description:
    "A turn end, an idle after a prompt with no turn, a wait, a bell and an exit set a pane's unread flag. It stays until this command (or the app) clears it. Prints what was cleared: the reasons the pane was unread for.",
  args: [PANE_ARG],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
  ],
  run: async (ctx) => {
    const result = await markSeen(ctx.args.PANE);
    ctx.out.result(result, () =>
      ctx.out.line(
        result.was_unread
          ? `Marked ${paneLabel(ctx.args.PANE, result)} seen: it was unread for ${
            result.reasons.join(", ")
          }`
          : `${paneLabel(ctx.args.PANE, result)} was not unread; nothing to clear`,
      ));
  },
});
