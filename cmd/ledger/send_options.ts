/**
 * The options and exit codes `ledger add --send` and `ledger send` share.
 *
 * @module
 */

import type { ExitUse } from "../../lib/cli/mod.ts";

/** The options `ledger send` takes, and `ledger add` with `--send`. */
export const SEND_OPTIONS = [
  { name: "enter", type: "boolean", help: "Press Enter and wait for a turn to start" },
  {
    name: "timeout",
    type: "number",
    value: "S",
    help: "Seconds to wait for the turn (default: daemon.turn_start_seconds)",
  },
] as const;

/** The exit codes of a send, as `skiff send` has them, for `--help`. */
export const SEND_EXITS: readonly ExitUse[] = [
  ["CONFLICT", "The task is not pending or interrupted, or another send has it"],
  ["NO_TURN", "The text went in, but no turn started: the task is now blocked"],
  "NOT_RUNNING",
  "NO_AGENT",
  ["WORKING", "The agent is working (the task stays pending)"],
  "APPROVAL",
  "DRAFT",
  ["TYPING", "A person is typing in the pane"],
  "NOT_DELIVERED",
  [
    "UNREACHABLE",
    "The task's host cannot be reached (the task stays as it was), or its link was lost during the send (the task is now blocked)",
  ],
];
