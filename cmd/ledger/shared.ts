/**
 * What the `skiff ledger` commands share: opening the ledger, asking skiffd
 * about panes, and reading refs and states from the command line.
 *
 * @module
 */

import { type CommandContext, SkiffError } from "../../lib/cli/mod.ts";
import { tryConnect, withDaemon } from "../../lib/client/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import type { PaneInfo as LivePane } from "../../lib/daemon/pane_info.ts";
import {
  type Ledger,
  type LedgerPane,
  ledgerPath,
  type Liveness,
  openLedger,
  type PaneLiveness,
} from "../../lib/ledger/mod.ts";

/** Exit codes every ledger command may use, for `--help`. */
export const LEDGER_EXITS: [number, string][] = [
  [6, "The ledger is damaged, not a Skiff ledger, from a newer Skiff, or locked"],
];

/** Exit codes of commands that take an ID, for `--help`. */
export const REF_EXITS: [number, string][] = [[3, "No task with that ID or uid"]];

/** The help line of the `ID` argument. */
export const ID_HELP = "Row ID, uid, or the first 4 or more characters of a uid";

/**
 * The ledger's path: `SKIFF_LEDGER`, else `ledger.db` in the Skiff agent's
 * folder (`[skiff_agent] folder` in projects.toml, default `~/skiff-agent`).
 * The config is read only when `SKIFF_LEDGER` is not set.
 */
export function cliLedgerPath(): string {
  if (Deno.env.get("SKIFF_LEDGER")) return ledgerPath();
  return ledgerPath({ folder: loadConfig().skiffAgent.folder });
}

/**
 * Opens the ledger, making it on first use, and says in text mode what the
 * open imported or upgraded.
 */
export function openCliLedger(ctx: CommandContext): Ledger {
  const ledger = openLedger(cliLedgerPath());
  if (ledger.imported) {
    const kept = ledger.imported.backup ? `; kept it as ${ledger.imported.backup}` : "";
    ctx.out.notice(
      `skiff: imported ${ledger.imported.rows} row(s) from ${ledger.imported.from}${kept}`,
    );
  }
  if (ledger.migrated) {
    ctx.out.notice(
      `skiff: upgraded the ledger from version ${ledger.migrated.from} to ${ledger.migrated.to} (${ledger.migrated.rows} row(s))`,
    );
  }
  return ledger;
}

/** A pane as the ledger stores it. */
function stored(pane: LivePane): LedgerPane {
  return { id: pane.id, name: pane.name, generation: pane.generation };
}

/**
 * Looks a pane up through skiffd, starting skiffd when it does not run. An
 * unknown pane gives exit `NOT_FOUND`.
 */
export async function lookUpPane(pane: string): Promise<LedgerPane> {
  return stored(await withDaemon((client) => client.call<LivePane>("pane.get", { pane })));
}

/**
 * The current generation of a pane, or `null` when skiffd does not run or no
 * longer has the pane. Never starts skiffd.
 */
export async function currentGeneration(pane: string): Promise<number | null> {
  const client = await tryConnect();
  if (!client) return null;
  try {
    return (await client.call<LivePane>("pane.get", { pane })).generation;
  } catch (error) {
    if (error instanceof SkiffError && error.exit === "NOT_FOUND") return null;
    throw error;
  } finally {
    client.close();
  }
}

/** What is known about which panes live: the map, or `null` with the reason. */
export interface LivenessReport {
  /** The live panes by id, or `null` when unknown. */
  liveness: Liveness;
  /** Why liveness is unknown, for the notice line. */
  why?: string;
}

/**
 * Asks skiffd which panes live, and their generations. Never starts skiffd:
 * when it does not run or does not answer, liveness is unknown.
 */
export async function readLiveness(): Promise<LivenessReport> {
  let client;
  try {
    client = await tryConnect();
  } catch (error) {
    return { liveness: null, why: `skiffd did not answer (${(error as Error).message})` };
  }
  if (!client) return { liveness: null, why: "skiffd is not running" };
  try {
    const { panes } = await client.call<{ panes: LivePane[] }>("pane.list");
    return {
      liveness: new Map<string, PaneLiveness>(
        panes.map((p) => [p.id, { generation: p.generation ?? null }]),
      ),
    };
  } catch (error) {
    if (!(error instanceof SkiffError) || error.exit !== "DAEMON") throw error;
    return { liveness: null, why: `skiffd did not answer (${error.message})` };
  } finally {
    client.close();
  }
}

/** Prints, in text mode, the one notice line that liveness is unknown. */
export function noticeUnknown(ctx: CommandContext, report: LivenessReport): void {
  if (report.liveness !== null) return;
  ctx.out.notice(
    `skiff: ${report.why}, so liveness is unknown: no task shows interrupted or gone`,
  );
}
