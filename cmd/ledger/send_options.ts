/**
 * The options and exit codes `ledger add --send` and `ledger send` share.
 *
 * @module
 */

import type { OptionSpec } from "../../lib/cli/mod.ts";

/** The options `ledger add --send` and `ledger send` share. */
export const SEND_OPTIONS: OptionSpec[] = [
  { name: "enter", type: "boolean", help: "Press Enter and wait for a turn to start" },
  {
    name: "timeout",
    type: "number",
    value: "S",
    help: "Seconds to wait for the turn (default: daemon.turn_start_seconds)",
  },
];

/** The exit codes of a send, as `skiff send` has them, for `--help`. */
export const SEND_EXITS: [number, string][] = [
  [5, "The task is not pending or interrupted, or another send has it"],
  [8, "The text went in, but no turn started: the task is now blocked"],
  [10, "The pane's process has exited"],
  [11, "No known agent is in front"],
  [12, "The agent is working (the task stays pending)"],
  [13, "An approval or question shows"],
  [14, "The input box holds a draft, or does not show"],
  [15, "A person is typing in the pane"],
  [16, "The text did not show up in the input box"],
];
