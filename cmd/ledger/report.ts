/**
 * Printing the outcome of a ledger send: the row always (a script needs the
 * uid even when the send was refused), then the refusal as an error.
 *
 * @module
 */

import { type Output, reportError } from "../../lib/cli/mod.ts";
import { type LedgerSendResult, TaskNotSent } from "../../lib/ops/ledger_send.ts";

/** Prints the outcome of `sending` and returns the exit code. */
export async function reportSend(
  ctx: { out: Output; json: boolean },
  sending: Promise<LedgerSendResult | object>,
): Promise<number> {
  let result: LedgerSendResult;
  let error: TaskNotSent | undefined;
  try {
    result = await sending as LedgerSendResult;
  } catch (thrown) {
    if (!(thrown instanceof TaskNotSent)) throw thrown;
    error = thrown;
    result = thrown.result;
  }
  ctx.out.result(result, () => {
    const { uid, state, stored_state: stored, result: path } = result.row;
    const shown = state === stored ? state : `${state} (stored ${stored})`;
    ctx.out.line(`${uid} ${shown} ${path}`);
  });
  if (error) reportError(error.cause as Error, ctx.json);
  return result.exit;
}
