/**
 * What the ledger needs to know from skiffd: a pane as the ledger stores
 * it, a pane's current generation, and which panes live, on this machine
 * and on the hosts of the ledger's tasks (through the links the local
 * skiffd holds).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { tryConnect } from "../client/connect.ts";
import type { DaemonClient } from "../client/client.ts";
import { parsePaneRef, type SkiffdAccess, withPane } from "../hosts/resolve.ts";
import {
  addHostLiveness,
  type LedgerPane,
  type Liveness,
  type PaneLiveness,
} from "../ledger/mod.ts";
import type { PaneInfo } from "../protocol/panes.ts";

/** How long the hosts of the ledger's tasks may take to say which of their panes live. */
export const HOSTS_WAIT_MS = 800;

/** A pane as the ledger stores it. */
function stored(pane: PaneInfo, host: string | null): LedgerPane {
  return { id: pane.id, host, name: pane.name, generation: pane.generation };
}

/**
 * Looks a pane up (`PANE`, or `HOST:PANE` on another host) through its
 * skiffd, starting the local skiffd when it does not run. An unknown pane
 * gives exit `NOT_FOUND`; a host that cannot be reached, `UNREACHABLE`.
 */
export async function lookUpPane(
  ref: string,
  options: { access?: SkiffdAccess } = {},
): Promise<LedgerPane> {
  const pane = await withPane(ref, (client, pane) => client.call("pane.get", { pane }), options);
  return stored(pane, parsePaneRef(ref).host);
}

/**
 * The current generation of a pane (on `host`, or this machine), or `null`
 * when its skiffd does not run or cannot be reached, or no longer has the
 * pane. Never starts skiffd.
 */
export async function currentGeneration(
  pane: string,
  host: string | null = null,
  options: { access?: SkiffdAccess } = {},
): Promise<number | null> {
  try {
    return await withPane(
      host === null ? pane : `${host}:${pane}`,
      async (client, ref) => (await client.call("pane.get", { pane: ref })).generation,
      { start: false, pane: false, waitMs: HOSTS_WAIT_MS, access: options.access },
    );
  } catch (error) {
    if (error instanceof SkiffError) return null;
    throw error;
  }
}

/** A host of the ledger's tasks that could not say which panes live. */
export interface UnreachableHost {
  /** The host. */
  host: string;
  /** Why, in one line. */
  why: string;
}

/** What is known about which panes live: the map, or `null` with the reason. */
export interface LivenessReport {
  /** The live panes by pane key (see `paneKey`), or `null` when unknown. */
  liveness: Liveness;
  /** Why liveness is unknown, for a notice line. */
  why?: string;
  /** The hosts whose tasks show `unreachable`, each with why. */
  unreachable: UnreachableHost[];
}

/**
 * Asks skiffd which panes live, and their generations, and, for each host
 * in `hosts`, that host's skiffd through its link (each answering within
 * {@linkcode HOSTS_WAIT_MS} or counted unreachable). Never starts skiffd:
 * when it does not run or does not answer, liveness is unknown.
 */
export async function readLiveness(
  hosts: readonly string[] = [],
  options: { access?: SkiffdAccess } = {},
): Promise<LivenessReport> {
  let client: DaemonClient | undefined;
  let release = () => client?.close();
  try {
    if (options.access) {
      const lease = await options.access.open(null, { start: false }).catch((error) => {
        if (error instanceof SkiffError && error.exit === "DAEMON") return undefined;
        throw error;
      });
      client = lease?.client;
      if (lease) release = () => lease.release();
    } else {
      client = await tryConnect();
    }
  } catch (error) {
    return {
      liveness: null,
      why: `skiffd did not answer (${(error as Error).message})`,
      unreachable: [],
    };
  }
  if (!client) return { liveness: null, why: "skiffd is not running", unreachable: [] };
  try {
    const [{ panes }, listed] = await Promise.all([
      client.call("pane.list"),
      hosts.length === 0 ? undefined : client.call("hosts.list", {
        hosts: [...hosts],
        connect: true,
        panes: true,
        wait_ms: HOSTS_WAIT_MS,
      }),
    ]);
    const liveness = new Map<string, PaneLiveness>(
      panes.map((p) => [p.id, { generation: p.generation ?? null }]),
    );
    const unreachable: UnreachableHost[] = [];
    for (const host of hosts) {
      const listing = listed?.hosts.find((h) => h.host === host);
      addHostLiveness(liveness, host, listing?.panes ?? null);
      if (listing?.panes) continue;
      unreachable.push({
        host,
        why: listing ? listing.why ?? listing.state : `no host '${host}' in projects.toml`,
      });
    }
    return { liveness, unreachable };
  } catch (error) {
    if (!(error instanceof SkiffError) || error.exit !== "DAEMON") throw error;
    return { liveness: null, why: `skiffd did not answer (${error.message})`, unreachable: [] };
  } finally {
    release();
  }
}
