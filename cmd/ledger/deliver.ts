/**
 * Sending a ledger task to its pane: the shared step of `ledger add --send`
 * and `ledger send`. It claims the task, runs every `skiff send` check, and
 * records the outcome: exit 0 makes the task sent, exit 8 blocked, and a
 * refusal leaves it as it was.
 *
 * @module
 */

import { SkiffError } from "../../lib/cli/mod.ts";
import { connectDaemon } from "../../lib/client/mod.ts";
import type { PaneInfo as LivePane } from "../../lib/daemon/pane_info.ts";
import type { Ledger, PaneLiveness, TaskRow } from "../../lib/ledger/mod.ts";

/** Options for {@linkcode deliverTask}. */
export interface DeliverOptions {
  /** Press Enter and wait for a turn to start. */
  enter: boolean;
  /** Milliseconds to wait for the turn, or the daemon's default. */
  timeoutMs?: number;
}

/** What a delivery did. */
export interface Delivery {
  /** The row after the send. */
  row: TaskRow;
  /** The send's result, on exit 0 or 8. */
  send: Record<string, unknown> | null;
  /** The exit code, the same as `skiff send` would give. */
  exit: number;
  /** The error of a refusal or of exit 8. */
  error?: SkiffError;
}

/** The text a pane receives for a task: the task, then where its result goes. */
export function taskMessage(row: TaskRow): string {
  return `${row.task}\n\n(Skiff task ${row.uid}) When you are done, write your result to ${row.result}`;
}

/**
 * Sends task `ref` to its pane. Refusals come back as an exit code with the
 * error, after the claim is released; other failures throw.
 */
export async function deliverTask(
  ledger: Ledger,
  ref: string,
  options: DeliverOptions,
): Promise<Delivery> {
  const client = await connectDaemon();
  try {
    const { panes } = await client.call<{ panes: LivePane[] }>("pane.list");
    const liveness = new Map<string, PaneLiveness>(
      panes.map((p) => [p.id, { generation: p.generation }]),
    );
    const row = ledger.claimForSend(ref, { liveness });
    if (row.pane === null) {
      ledger.finishSend(row.uid, "released");
      throw new SkiffError(`Row ${row.uid} is a plan; plans have no pane to send to`, {
        exit: "USAGE",
      });
    }
    let send: Record<string, unknown>;
    try {
      send = await client.call("pane.send", {
        pane: row.pane,
        text: taskMessage(row),
        enter: options.enter,
        timeout_ms: options.timeoutMs,
      });
    } catch (error) {
      if (error instanceof SkiffError && error.exit === "NO_TURN") {
        const generation = panes.find((p) => p.id === row.pane)?.generation ?? null;
        const blocked = ledger.finishSend(row.uid, "blocked", generation);
        return { row: blocked, send: null, exit: error.code, error };
      }
      ledger.finishSend(row.uid, "released");
      if (error instanceof SkiffError && error.exit !== "DAEMON" && error.exit !== "ERROR") {
        return { row: ledger.get(row.uid), send: null, exit: error.code, error };
      }
      throw error;
    }
    const sent = ledger.finishSend(row.uid, "sent", Number(send.generation));
    return { row: sent, send, exit: 0 };
  } finally {
    client.close();
  }
}

/** The options `ledger add --send` and `ledger send` share. */
export const SEND_OPTIONS = [
  { name: "enter", type: "boolean" as const, help: "Press Enter and wait for a turn to start" },
  {
    name: "timeout",
    type: "number" as const,
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
