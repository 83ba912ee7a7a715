/**
 * `skiff capture`: print a pane's screen.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { capturePane } from "../lib/ops/capture_pane.ts";

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
    const result = await capturePane(ctx.args.PANE, {
      ansi: ctx.opts.ansi,
      scrollback: ctx.opts.scrollback,
    });
    ctx.out.result(result, () => ctx.out.line(result.text));
  },
});
