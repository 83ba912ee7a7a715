/**
 * Reading the ledger as the app and the dashboard show it: every row, done
 * ones too, with the shown states (`interrupted` and `gone` worked out from
 * skiffd's panes), and why a change would fail now (read-only, locked).
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { addHostLiveness, isLockedError, listToJson, type PaneLiveness } from "../ledger/mod.ts";
import { ledgerPlace, openAgentLedger } from "../skipper/mod.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { HostView, LedgerView } from "./view.ts";

/** Options for {@linkcode readLedgerView}. */
export interface ReadLedgerOptions {
  /** How long to wait for a lock another process holds (ms). */
  timeout: number;
  /** Called when the ledger was found locked: the caller hears when the lock goes. */
  sawLock?: () => void;
  /**
   * The other hosts as the list follows them: a task on a host whose panes
   * are known shows `interrupted` or `gone` as a local one does, one on a
   * host that cannot be reached shows `unreachable`, as `skiff ledger ls`.
   */
  hosts?: readonly HostView[];
}

/** Reads the ledger where the settings put it; `panes` are skiffd's panes now. */
export function readLedgerView(
  panes: readonly ListedPane[],
  options: ReadLedgerOptions,
): LedgerView {
  const place = ledgerPlace();
  const liveness = new Map<string, PaneLiveness>(
    panes.map((p) => [p.id, { generation: p.generation }]),
  );
  for (const host of options.hosts ?? []) {
    // A host not yet heard from is left out: its tasks show their stored state.
    if (host.state === "unknown") continue;
    // A list keys a host's pane HOST:ID; the host knows it by its own id.
    const panes = host.panes.map((p) => ({ ...p, id: p.id.slice(host.host.length + 1) }));
    addHostLiveness(liveness, host.host, host.state === "up" ? panes : null);
  }
  const exists = pathExists(place.path);
  try {
    using ledger = openAgentLedger({ timeout: options.timeout });
    const list = listToJson(ledger.list({ all: true }, liveness));
    const problem = exists ? ledger.writeProblem() : null;
    if (isLockedError(problem)) options.sawLock?.();
    return { path: place.path, exists, problem: problem?.message ?? null, ...list };
  } catch (error) {
    if (isLockedError(error)) options.sawLock?.();
    throw error;
  }
}
