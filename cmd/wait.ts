/**
 * `skiff wait`: wait until a pane reaches a state.
 *
 * @module
 */

import {
  arg,
  type CommandSpec,
  optNumber,
  optString,
  secondsToMs,
  SkiffError,
} from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import type { WaitState } from "../lib/protocol/agents.ts";

const STATES: WaitState[] = ["idle", "working", "waiting", "exited"];

/** The `wait` command. */
export const command: CommandSpec = {
  name: "wait",
  summary: "Wait until a pane is idle, working, waiting or exited",
  args: [{ name: "PANE", required: true, help: "Pane id, name, or project/name" }],
  options: [
    {
      name: "until",
      short: "u",
      type: "string",
      value: "STATE",
      help: "idle, working, waiting or exited (default idle)",
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
  exitCodes: [[3, "No such pane"], [4, "skiffd could not be reached"], [
    7,
    "The timeout passed first",
  ]],
  run: async (ctx) => {
    const until = (optString(ctx, "until") ?? "idle") as WaitState;
    if (!STATES.includes(until)) {
      throw new SkiffError(`Bad state '${until}': use ${STATES.join(", ")}`, { exit: "USAGE" });
    }
    const seconds = optNumber(ctx, "timeout");
    const result = await withDaemon((client) =>
      client.call("pane.wait", {
        pane: arg(ctx, "PANE"),
        until,
        timeout_ms: seconds === undefined ? undefined : secondsToMs(seconds, "timeout"),
      })
    );
    ctx.out.result(result, () => ctx.out.line(`${result.name} is ${result.state}`));
  },
};
