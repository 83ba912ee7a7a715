/**
 * `skiff wait`: wait until a pane reaches a state.
 *
 * @module
 */

import { defineCommand, PANE_ARG, secondsToMs } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import type { WaitState } from "../lib/protocol/agents.ts";

const STATES = ["idle", "working", "waiting", "exited"] as const satisfies readonly WaitState[];

/** The `wait` command. */
export const command = defineCommand({
  name: "wait",
  summary: "Wait until a pane is idle, working, waiting or exited",
  args: [PANE_ARG],
  options: [
    {
      name: "until",
      short: "u",
      type: "string",
      value: "STATE",
      help: "The state to wait for (default idle)",
      choices: STATES,
    },
    {
      name: "timeout",
      short: "t",
      type: "number",
      value: "S",
      help: "Give up after S seconds (default: wait forever)",
    },
  ],
  examples: ["skiff wait reviewer --until idle --timeout 600"],
  exits: ["NOT_FOUND", "DAEMON", ["TIMEOUT", "The timeout passed first"]],
  run: async (ctx) => {
    const until = (ctx.opts.until ?? "idle") as WaitState;
    const seconds = ctx.opts.timeout;
    const result = await withDaemon((client) =>
      client.call("pane.wait", {
        pane: ctx.args.PANE,
        until,
        timeout_ms: seconds === undefined ? undefined : secondsToMs(seconds, "timeout"),
      })
    );
    ctx.out.result(result, () => ctx.out.line(`${result.name} is ${result.state}`));
  },
});
