/**
 * `skiff send`: type a task into an agent, safely.
 *
 * @module
 */

import { defineCommand, PANE_ARG, readStdin, secondsToMs, usageError } from "../lib/cli/mod.ts";
import { paneLabel } from "../lib/hosts/resolve.ts";
import { checkSendText, sendToPane } from "../lib/ops/send_to_pane.ts";

/** The `send` command. */
export const command = defineCommand({
  name: "send",
  summary: "Type a task into an agent, only when it is safe",
  description:
    "Type TEXT into the agent in PANE. At the moment of typing, Skiff checks that the pane runs, a known agent is in front, it is not working, no approval shows, and its input box shows and is empty; a refusal types nothing. The text goes in as one bracketed paste, Skiff checks that it landed, and with --enter presses Enter after the agent's delay and waits for a turn to start. Keys a person types meanwhile go in after the Enter. TEXT '-' reads the text from stdin. TEXT is at most 256 KB (exit 2 beyond).",
  args: [
    PANE_ARG,
    { name: "TEXT", required: true, help: "The text, or - to read stdin" },
  ],
  options: [
    { name: "enter", type: "boolean", help: "Press Enter and wait for a turn to start" },
    {
      name: "timeout",
      type: "number",
      value: "S",
      help: "Seconds to wait for the turn (default: daemon.turn_start_seconds, 10)",
      requires: ["enter"],
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
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
    "NO_TURN",
    "NOT_RUNNING",
    "NO_AGENT",
    "WORKING",
    "APPROVAL",
    "DRAFT",
    ["TYPING", "A person is typing in the pane"],
    "NOT_DELIVERED",
  ],
  run: async (ctx) => {
    let text = ctx.args.TEXT;
    if (text === "-") text = await readStdin();
    if (text.trim() === "") {
      // In the words the CLI kit uses for an empty argument (the kit refused a plain '').
      const what = ctx.args.TEXT === "-" ? "TEXT from stdin" : "Argument TEXT";
      throw usageError(`${what} ${text === "" ? "is empty" : "holds only whitespace"}`, ["send"]);
    }
    // Refused here, before skiffd is started or the request is written.
    checkSendText(text);
    const seconds = ctx.opts.timeout;
    const result = await sendToPane(ctx.args.PANE, text, {
      enter: ctx.opts.enter,
      any: ctx.opts.any,
      timeoutMs: seconds === undefined ? undefined : secondsToMs(seconds, "timeout"),
    });
    const label = paneLabel(ctx.args.PANE, result);
    ctx.out.result(result, () =>
      ctx.out.line(
        result.entered
          ? `Sent to ${label}; ${result.turn_started ? "a turn started" : "Enter pressed"}`
          : `Typed into ${label}; Enter not pressed`,
      ));
  },
});
