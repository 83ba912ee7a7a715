/**
 * `skiff mark`: set or clear a session's marks.
 *
 * @module
 */

import { defineCommand, SkiffError, usageError } from "../lib/cli/mod.ts";
import { withPane } from "../lib/hosts/resolve.ts";

/** The `mark` command. */
export const command = defineCommand({
  name: "mark",
  summary: "Set, clear or show a session's marks",
  description:
    "Marks are key=value labels on a session, kept in the workspace through reloads and restarts. SESSION may be a session id or name, or a pane in the session. With no KEY, print the marks.",
  args: [
    {
      name: "SESSION",
      required: true,
      help: "Session id or name, or one of its panes; HOST:SESSION on another host",
      complete: "session",
    },
    { name: "KEY[=VALUE]", help: "The mark to set (VALUE defaults to empty)" },
  ],
  options: [{ name: "clear", type: "string", value: "KEY", help: "Remove mark KEY" }],
  examples: ["skiff mark reviewer role=review", "skiff mark reviewer --clear role"],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    ["NOT_FOUND", "No such session"],
    "DAEMON",
  ],
  run: async (ctx) => {
    const pair = ctx.args["KEY[=VALUE]"];
    const clear = ctx.opts.clear;
    if (pair?.startsWith("=")) {
      throw usageError(`Argument KEY[=VALUE] has an empty KEY ('${pair}')`, ["mark"]);
    }
    if (pair !== undefined && clear !== undefined) {
      throw new SkiffError("Give either KEY[=VALUE] or --clear KEY, not both", { exit: "USAGE" });
    }
    const result = await withPane(ctx.args.SESSION, async (client, session) => {
      if (clear !== undefined) {
        return await client.call("session.mark", { session, key: clear, value: null });
      }
      if (pair !== undefined) {
        const eq = pair.indexOf("=");
        const key = eq === -1 ? pair : pair.slice(0, eq);
        const value = eq === -1 ? "" : pair.slice(eq + 1);
        return await client.call("session.mark", { session, key, value });
      }
      return await client.call("session.get", { session });
    }, { pane: false });
    ctx.out.result(result, () => {
      if (pair === undefined && clear === undefined) {
        for (const [key, value] of Object.entries(result.marks)) {
          ctx.out.line(value === "" ? key : `${key}=${value}`);
        }
      }
    });
  },
});
