/**
 * Reading the ledger as the app and the dashboard show it: every row, done
 * ones too, with the shown states (`interrupted` and `gone` worked out from
 * skiffd's panes), and why a change would fail now (read-only, locked).
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { isLockedError, listToJson, type PaneLiveness } from "../ledger/mod.ts";
import { ledgerPlace, openAgentLedger } from "../skipper/mod.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { LedgerView } from "./view.ts";

/** Options for {@linkcode readLedgerView}. */
export interface ReadLedgerOptions {
  /** How long to wait for a lock another process holds (ms). */
  timeout: number;
  /** Called when the ledger was found locked: the caller hears when the lock goes. */
  sawLock?: () => void;
}

/** Reads the ledger where the settings put it; `panes` are skiffd's panes now. */
export function readLedgerView(
  panes: readonly PaneInfo[],
  options: ReadLedgerOptions,
): LedgerView {
  const place = ledgerPlace();
  const liveness = new Map<string, PaneLiveness>(
    panes.map((p) => [p.id, { generation: p.generation }]),
  );
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
