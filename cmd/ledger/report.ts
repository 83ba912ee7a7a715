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
  ctx.out.result({ row: entryToJson(entry), send: delivery.send, exit: delivery.exit }, () => {
    const state = delivery.row.state;
    ctx.out.line(`${delivery.row.uid} ${state} ${delivery.row.result}`);
  });
  if (delivery.error) reportError(delivery.error, ctx.json);
  return delivery.exit;
}
