/**
 * What the ledger needs to know from skiffd: a pane as the ledger stores
 * it, a pane's current generation, and which panes live.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { tryConnect } from "../client/connect.ts";
import { withDaemon } from "../client/use.ts";
import type { LedgerPane, Liveness, PaneLiveness } from "../ledger/mod.ts";
import type { PaneInfo } from "../protocol/panes.ts";

/** A pane as the ledger stores it. */
function stored(pane: PaneInfo): LedgerPane {
  return { id: pane.id, name: pane.name, generation: pane.generation };
}

/**
 * Looks a pane up through skiffd, starting skiffd when it does not run. An
 * unknown pane gives exit `NOT_FOUND`.
 */
export async function lookUpPane(pane: string): Promise<LedgerPane> {
  return stored(await withDaemon((client) => client.call("pane.get", { pane })));
}

/**
 * The current generation of a pane, or `null` when skiffd does not run or no
 * longer has the pane. Never starts skiffd.
 */
export async function currentGeneration(pane: string): Promise<number | null> {
  const client = await tryConnect();
  if (!client) return null;
  try {
    return (await client.call("pane.get", { pane })).generation;
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
  /** Why liveness is unknown, for a notice line. */
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
    const { panes } = await client.call("pane.list");
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
