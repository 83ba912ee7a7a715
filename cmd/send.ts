/**
 * `skiff send`: type a task into an agent, safely.
 *
 * @module
 */

import {
  arg,
  type CommandSpec,
  optBool,
  optNumber,
  readStdin,
  secondsToMs,
  SkiffError,
} from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `send` command. */
export const command: CommandSpec = {
  name: "send",
  summary: "Type a task into an agent, only when it is safe",
  description:
    "Type TEXT into the agent in PANE. At the moment of typing, Skiff checks that the pane runs, a known agent is in front, it is not working, no approval shows, and its input box shows and is empty; a refusal types nothing. The text goes in as one bracketed paste, Skiff checks that it landed, and with --enter presses Enter after the agent's delay and waits for a turn to start. Keys a person types meanwhile go in after the Enter. TEXT '-' reads the text from stdin.",
  args: [
    { name: "PANE", required: true, help: "Pane id, name, or project/name" },
    { name: "TEXT", required: true, help: "The text, or - to read stdin" },
  ],
  options: [
    { name: "enter", type: "boolean", help: "Press Enter and wait for a turn to start" },
    {
      name: "timeout",
      type: "number",
      value: "S",
      help: "Seconds to wait for the turn (default: daemon.turn_start_seconds, 10)",
    },
    {
      name: "any",
      type: "boolean",
      help: "Allow a program that is not a known agent (no screen checks)",
    },
  ],
  examples: [
    "skiff send reviewer 'Review the login change' --enter",
    "skiff send api/worker - --enter < task.md",
  ],
  exitCodes: [
    [3, "No such pane"],
    [4, "skiffd could not be reached"],
    [8, "The text went in, but no turn started: the pane needs the person"],
    [10, "The pane's process has exited"],
    [11, "No known agent is in front"],
    [12, "The agent is working"],
    [13, "An approval or question shows"],
    [14, "The input box holds a draft, or does not show"],
    [15, "A person is typing in the pane"],
    [16, "The text did not show up in the input box"],
  ],
  run: async (ctx) => {
    let text = arg(ctx, "TEXT");
    if (text === "-") text = await readStdin();
    if (text.trim() === "") throw new SkiffError("TEXT is empty", { exit: "USAGE" });
    const seconds = optNumber(ctx, "timeout");
    const result = await withDaemon((client) =>
      client.call("pane.send", {
        pane: arg(ctx, "PANE"),
        text,
        enter: optBool(ctx, "enter"),
        any: optBool(ctx, "any"),
        timeout_ms: seconds === undefined ? undefined : secondsToMs(seconds, "timeout"),
      })
    );
    ctx.out.result(result, () =>
      ctx.out.line(
        result.entered
          ? `Sent to ${result.name} (${result.pane}); ${
            result.turn_started ? "a turn started" : "Enter pressed"
          }`
          : `Typed into ${result.name} (${result.pane}); Enter not pressed`,
      ));
  },
};
