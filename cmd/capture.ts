/**
 * `skiff capture`: print a pane's screen.
 *
 * @module
 */

import { defineCommand, PANE_ARG, SkiffError } from "../lib/cli/mod.ts";
import { withPane } from "../lib/hosts/resolve.ts";

/** The `capture` command. */
export const command = defineCommand({
  name: "capture",
  summary: "Print a pane's screen as text",
  description:
    "Print what a pane shows, as text with trailing blank lines dropped. --json adds the cursor, size, title, alternate-screen flag and every row.",
  args: [PANE_ARG],
  options: [
    { name: "ansi", short: "e", type: "boolean", help: "Keep colours and styles as escape codes" },
    {
      name: "scrollback",
      short: "S",
      type: "number",
      value: "N",
      help: "Include N lines of history",
    },
  ],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
  ],
  run: async (ctx) => {
    const lines = ctx.opts.scrollback;
    if (lines !== undefined && (!Number.isInteger(lines) || lines < 0)) {
      throw new SkiffError("Option '--scrollback' needs a whole number of lines, 0 or more", {
        exit: "USAGE",
      });
    }
    const result = await withPane(ctx.args.PANE, (client, pane) =>
      client.call("pane.capture", {
        pane,
        ansi: ctx.opts.ansi,
        scrollback: ctx.opts.scrollback,
      }));
    ctx.out.result(result, () => ctx.out.line(result.text));
  },
});
