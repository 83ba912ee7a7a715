/**
 * Sending a ledger task to its pane, as `skiff ledger send` and `skiff
 * ledger add --send` do: the guarded send of `lib/tasks`, and the row as it
 * is after it.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { entryToJson, type Ledger, type TaskJson } from "../ledger/mod.ts";
import type { Delivery } from "../tasks/deliver.ts";
import type { SendResult } from "../protocol/agents.ts";
import type { LedgerOpOptions } from "./ledger_scope.ts";

/** What `skiff ledger send --json` (and `ledger add --send --json`) prints. */
export interface LedgerSendResult {
  /** The row after the send, with the state it shows. */
  row: TaskJson;
  /** The send's result, when the text went in. */
  send: SendResult | null;
  /** The exit code, the same as `skiff send` would give. */
  exit: number;
}

/**
 * A send that did not end in a turn: a refusal (nothing typed, the row as
 * it was), no turn (the task blocked), or a lost connection. It carries
 * what the CLI prints on stdout before the error, since a caller needs the
 * row's uid even then.
 */
export class TaskNotSent extends SkiffError {
  /** The row and the send, as on success. */
  readonly result: LedgerSendResult;

  /** Wraps the delivery's error with the result. */
  constructor(error: SkiffError, result: LedgerSendResult) {
    super(error.message, {
      exit: error.exit,
      details: { ...error.details, uid: result.row.uid },
      cause: error,
    });
    this.name = "TaskNotSent";
    this.result = result;
  }
}

/** Options for {@linkcode ledgerSend}. */
export interface LedgerSendOptions extends Pick<LedgerOpOptions, "access"> {
  /** Press Enter and wait for a turn to start (without it the task ends up blocked). */
  enter?: boolean;
  /** How long to wait for the turn, in ms (default: skiffd's). */
  timeoutMs?: number;
}

/** The result of `delivery`, with the row as the ledger has it now. */
export function deliveryResult(ledger: Ledger, delivery: Delivery): LedgerSendResult {
  const entry = ledger.show(delivery.row.uid, null);
  const row = { ...entryToJson(entry), state: delivery.shown };
  return { row, send: delivery.send, exit: delivery.exit };
}

/**
 * Sends task `ref` to its pane and returns what `skiff ledger send --json`
 * prints; a send that did not start a turn throws {@linkcode TaskNotSent}.
 */
export async function ledgerSend(
  ledger: Ledger,
  ref: string,
  options: LedgerSendOptions = {},
): Promise<LedgerSendResult> {
  // Loaded only to send: an add alone starts faster.
  const { deliverTask } = await import("../tasks/deliver.ts");
  const delivery = await deliverTask(ledger, ref, {
    enter: options.enter ?? false,
    timeoutMs: options.timeoutMs,
    access: options.access,
  });
  const result = deliveryResult(ledger, delivery);
  if (delivery.error) throw new TaskNotSent(delivery.error, result);
  return result;
}
