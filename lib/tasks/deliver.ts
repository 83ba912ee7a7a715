/**
 * Sending a ledger task to its pane: claim the row, run the guarded send,
 * record the outcome. `skiff ledger add --send`, `skiff ledger send`, the
 * watcher's pending lines and the app all deliver through here.
 *
 * Exit 0 makes the task sent and exit 8 blocked; a refusal leaves it as it
 * was.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { connectDaemon } from "../client/connect.ts";
import type { DaemonClient } from "../client/client.ts";
import type { Ledger, PaneLiveness, TaskRow } from "../ledger/mod.ts";
import type { SendResult } from "../protocol/agents.ts";

/** Options for {@linkcode deliverTask}. */
export interface DeliverOptions {
  /** Press Enter and wait for a turn to start. */
  enter: boolean;
  /** Milliseconds to wait for the turn, or the daemon's default. */
  timeoutMs?: number;
  /** A connection to use; by default one is made (starting skiffd when needed) and closed. */
  client?: DaemonClient;
}

/** What a delivery did. */
export interface Delivery {
  /** The row after the send. */
  row: TaskRow;
  /** The send's result, on exit 0. */
  send: SendResult | null;
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
  const client = options.client ?? await connectDaemon();
  try {
    const { panes } = await client.call("pane.list");
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
    let send: SendResult;
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
    const sent = ledger.finishSend(row.uid, "sent", send.generation);
    return { row: sent, send, exit: 0 };
  } finally {
    if (!options.client) client.close();
  }
}
