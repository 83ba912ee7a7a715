/**
 * Which ledger file the Skiff agent's tasks live in.
 *
 * @module
 */

import { agentFolder, loadConfig } from "../config/config.ts";
import { ledgerPath } from "../ledger/open.ts";

/**
 * The ledger's path: `SKIFF_LEDGER`, else `ledger.db` in the Skiff agent's
 * folder (`[skiff_agent] folder` in projects.toml, default `~/skiff-agent`).
 * The config is read only when `SKIFF_LEDGER` is not set. Throws exit
 * `USAGE` when the folder needs a home folder and `HOME` is not set.
 */
export function agentLedgerPath(): string {
  if (Deno.env.get("SKIFF_LEDGER")) return ledgerPath();
  return ledgerPath({ folder: agentFolder(loadConfig()) });
}
