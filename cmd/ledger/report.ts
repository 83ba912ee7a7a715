/**
 * Printing the outcome of a ledger send: the row always (a script needs the
 * uid even when the send was refused), then the refusal as an error.
 *
 * @module
 */

import { type Output, reportError } from "../../lib/cli/mod.ts";
import { entryToJson, type Ledger } from "../../lib/ledger/mod.ts";
import type { Delivery } from "../../lib/tasks/mod.ts";

/** Prints `delivery` and returns the exit code. */
export function reportDelivery(
  ctx: { out: Output; json: boolean },
  ledger: Ledger,
  delivery: Delivery,
): number {
  const entry = ledger.show(delivery.row.uid, null);
  const row = { ...entryToJson(entry), state: delivery.shown };
  ctx.out.result({ row, send: delivery.send, exit: delivery.exit }, () => {
    const { uid, state, result } = delivery.row;
    const shown = delivery.shown === state ? state : `${delivery.shown} (stored ${state})`;
    ctx.out.line(`${uid} ${shown} ${result}`);
  });
  if (delivery.error) reportError(delivery.error, ctx.json);
  return delivery.exit;
}
