/**
 * `skiff wait`: wait until a pane reaches a state.
 *
 * @module
 */

import { defineCommand, PANE_ARG, secondsToMs } from "../lib/cli/mod.ts";
import type { WaitState } from "../lib/protocol/agents.ts";
import { WAIT_STATES, waitForPane } from "../lib/ops/wait_for_pane.ts";

/** The `wait` command. */
export const command = defineCommand({
  name: "wait",
  summary: "Wait until a pane is idle, working, waiting, exited or a bare shell",
  description:
    "Wait until the pane shows the state: idle, working or waiting (an agent's states), exited, or shell (no known agent in front). Waiting for an agent's state in a pane with no agent in front fails at once (exit 11), since a shell never gets there; a pane just made or typed into gets 3 s to start one. A pane whose process exited fails for any state but exited (exit 10).",
  args: [PANE_ARG],
  options: [
    {
      name: "until",
      short: "u",
      type: "string",
      value: "STATE",
      help: "The state to wait for (default idle)",
      choices: WAIT_STATES,
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
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
    ["TIMEOUT", "The timeout passed first"],
    ["NOT_RUNNING", "The pane's process exited, and the state is not exited"],
    ["NO_AGENT", "No agent is in front, and only an agent reaches the state"],
  ],
  run: async (ctx) => {
    const until = (ctx.opts.until ?? "idle") as WaitState;
    const seconds = ctx.opts.timeout;
    const timeoutMs = seconds === undefined ? undefined : secondsToMs(seconds, "timeout");
    const result = await waitForPane(ctx.args.PANE, { until, timeoutMs });
    ctx.out.result(result, () => ctx.out.line(`${result.name} is ${result.state}`));
  },
});
