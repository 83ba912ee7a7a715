/**
 * Sending a ledger task to its pane: claim the row, run the guarded send,
 * record the outcome. A task on a pane of another host goes through that
 * host's link; a host that cannot be reached is a refusal (exit 17, the row
 * as it was), and a link lost during the send leaves the task blocked, as a
 * lost skiffd does. `skiff ledger add --send`, `skiff ledger send`, the
 * watcher's pending lines and the app all deliver through here.
 *
 * The task becomes `sent` only when it was submitted and a turn started
 * (exit 0). Text that went in without a turn, text typed without Enter, and
 * a send whose outcome is unknown because skiffd went away all leave it
 * `blocked`, with a note that says which (exit 8, or 4 for the lost
 * connection): the pane needs the person, and sending again could type the
 * task twice. A refusal (nothing was typed) leaves the task as it was.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { ConnectionClosed, type DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import { connectHost, onHost } from "../hosts/resolve.ts";
import {
  type Ledger,
  listedKey,
  paneKey,
  type PaneLiveness,
  type ShownState,
  type TaskRow,
  taskShownState,
} from "../ledger/mod.ts";
import type { SendResult } from "../protocol/agents.ts";

/** Options for {@linkcode deliverTask}. */
export interface DeliverOptions {
  /** Press Enter and wait for a turn to start. Without it the task ends up blocked. */
  enter: boolean;
  /** Milliseconds to wait for the turn, or the daemon's default. */
  timeoutMs?: number;
  /** A connection to use; by default one is made (starting skiffd when needed) and closed. */
  client?: DaemonClient;
  /** Refuse when a person's keystroke count in the pane moved past this (see `pane.send`). */
  sinceInputs?: number;
}

/** What a delivery did. */
export interface Delivery {
  /** The row after the send. */
  row: TaskRow;
  /** The state the row shows now (a refused send of an interrupted task still shows interrupted). */
  shown: ShownState;
  /** The send's result, when the text went in. */
  send: SendResult | null;
  /** The exit code, the same as `skiff send` would give. */
  exit: number;
  /** The error of a refusal, of exit 8, or of a lost connection. */
  error?: SkiffError;
}

/** The text a pane receives for a task: the task, then where its result goes. */
export function taskMessage(row: TaskRow): string {
  return `${row.task}\n\n(Skiff task ${row.uid}) When you are done, write your result to ${row.result}`;
}

/** What the note of a blocked task says, by cause (no turn: skiffd's own words). */
export const BLOCKED_NOTES = {
  noEnter: "typed without Enter: the text waits in the input box, not submitted",
  lost: "skiffd closed the connection during the send: whether the text went in is unknown",
} as const;

/** The note of a task whose host's link went during the send: the outcome is unknown. */
export function linkLostNote(host: string): string {
  return `the link to ${host} was lost during the send: whether the text went in is unknown`;
}

/** A connection to the skiffd of `host` (null: this machine), and how to close it. */
async function connectFor(host: string | null): Promise<{ client: DaemonClient; close(): void }> {
  if (host === null) {
    const client = await connectDaemon();
    return { client, close: () => client.close() };
  }
  const { client, holder } = await connectHost(host);
  return {
    client,
    close: () => {
      client.close();
      holder?.close();
    },
  };
}

/**
 * Sends task `ref` to its pane. Refusals, no turn and a lost connection come
 * back as an exit code with the error; other failures throw after the claim
 * is released.
 */
export async function deliverTask(
  ledger: Ledger,
  ref: string,
  options: DeliverOptions,
): Promise<Delivery> {
  const host = ledger.get(ref).host;
  let connection: { client: DaemonClient; close(): void };
  try {
    connection = options.client
      ? { client: options.client, close: () => {} }
      : await connectFor(host);
  } catch (error) {
    // A host that cannot be reached, or is not known: nothing was typed and the row stays.
    if (host === null || !(error instanceof SkiffError)) throw error;
    const row = ledger.get(ref);
    const shown = error.exit === "UNREACHABLE" && row.state !== "done"
      ? "unreachable"
      : taskShownState(row, null);
    return { row, shown, send: null, exit: error.code, error };
  }
  const client = connection.client;
  try {
    const { panes } = await client.call("pane.list");
    const liveness = new Map<string, PaneLiveness>(
      panes.map((p) => [paneKey(host, p.id), { generation: p.generation }]),
    );
    if (host !== null) liveness.set(listedKey(host), { generation: null });
    const row = ledger.claimForSend(ref, { liveness });
    const pane = panes.find((p) => p.id === row.pane);
    const generation = pane?.generation ?? null;
    // The branch the work will be on, so a person can see which branch did it, and
    // the worktree, so `skiff land` knows which tasks its landing carries.
    const branch = pane?.worktree?.branch ?? null;
    const worktree = pane?.worktree?.id ?? null;
    const blocked = (note: string, error: SkiffError, send: SendResult | null): Delivery => {
      const stored = ledger.finishSend(row.uid, "blocked", {
        generation: send?.generation ?? generation,
        branch,
        worktree,
        note,
      });
      return { row: stored, shown: "blocked", send, exit: error.code, error };
    };
    let send: SendResult;
    try {
      send = await client.call("pane.send", {
        pane: row.pane!,
        text: taskMessage(row),
        enter: options.enter,
        timeout_ms: options.timeoutMs,
        since_inputs: options.sinceInputs,
      });
    } catch (error) {
      if (error instanceof SkiffError && error.exit === "NO_TURN") {
        return blocked(error.message.replace(/^Pane '[^']*': /, ""), error, null);
      }
      if (error instanceof ConnectionClosed) {
        // The outcome is unknown: never back to pending, or the task could be typed twice.
        const note = host === null ? BLOCKED_NOTES.lost : linkLostNote(host);
        const lost = new SkiffError(`Task ${row.uid}: ${note}; it is now blocked`, {
          exit: host === null ? "DAEMON" : "UNREACHABLE",
          details: host === null ? {} : { host },
          cause: error,
        });
        return blocked(note, lost, null);
      }
      const released = ledger.finishSend(row.uid, "released");
      if (error instanceof SkiffError && error.exit !== "DAEMON" && error.exit !== "ERROR") {
        const shown = taskShownState(released, liveness);
        const said = host === null ? error : onHost(host, error) as SkiffError;
        return { row: released, shown, send: null, exit: said.code, error: said };
      }
      throw error;
    }
    if (!options.enter) {
      const waiting = new SkiffError(
        `Task ${row.uid}: typed into ${send.name} without Enter, so it was not submitted; it is blocked until Enter is pressed in the pane (send with --enter to submit)`,
        { exit: "NO_TURN", details: { pane: send.pane, reason: "no_enter" } },
      );
      return blocked(BLOCKED_NOTES.noEnter, waiting, send);
    }
    const sent = ledger.finishSend(row.uid, "sent", {
      generation: send.generation,
      branch,
      worktree,
    });
    return { row: sent, shown: "sent", send, exit: 0 };
  } finally {
    connection.close();
  }
}
