/**
 * Opening the Skiff agent's ledger for a command. The ledger lives in the
 * agent's folder, so the first command that makes it sets the folder up
 * (the same setup as `skiff skipper`), and a folder that holds other files
 * is refused. `SKIFF_LEDGER` names any file instead, with no setup.
 *
 * Reading a ledger that does not exist creates nothing, and a command that
 * would fail on a new ledger fails before the ledger is made.
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { join } from "../platform/path.ts";
import { agentFolder, type Config, loadConfig } from "../config/config.ts";
import { SkiffError } from "../errors.ts";
import {
  type Ledger,
  LEDGER_FILE,
  ledgerPath,
  openLedger,
  rehearsalLedger,
} from "../ledger/mod.ts";
import { folderKind, kindRefusal, placeRefusal } from "./folder.ts";
import { setUpFolder } from "./setup.ts";
import { installSkill, skillCopyDir } from "./skill.ts";

/** Where the ledger is. */
export interface LedgerPlace {
  /** The ledger file. */
  path: string;
  /** The Skiff agent's folder that holds it, or null when `SKIFF_LEDGER` names the file. */
  folder: string | null;
}

/** The ledger's place: `SKIFF_LEDGER`, else `ledger.db` in the Skiff agent's folder. */
export function ledgerPlace(config?: Config): LedgerPlace {
  if (Deno.env.get("SKIFF_LEDGER")) return { path: ledgerPath(), folder: null };
  const folder = agentFolder(config ?? loadConfig());
  return { path: join(folder, LEDGER_FILE), folder };
}

/** Options for {@linkcode openAgentLedger}. */
export interface OpenAgentLedgerOptions {
  /**
   * Make the ledger (and set up its folder) when it is missing. Without it, a
   * missing ledger opens empty and nothing is written.
   */
  create?: boolean;
  /**
   * Runs first against an empty ledger in memory when the ledger is about to
   * be made, so that a command that would fail leaves no file behind.
   */
  rehearse?: (ledger: Ledger) => void;
  /** How long, in ms, to wait for a lock that another process holds (the ledger's default: 10 s). */
  timeout?: number;
}

function refuse(folder: string, reason: string): SkiffError {
  return new SkiffError(`Cannot use ${folder} as the Skiff agent's folder: ${reason}`, {
    exit: "USAGE",
    details: { folder },
  });
}

/**
 * Opens the Skiff agent's ledger. When it does not exist yet and its folder
 * holds other files, refuses (exit `USAGE`); with `create`, checks where the
 * folder is, sets it up, and makes the ledger.
 */
export function openAgentLedger(options: OpenAgentLedgerOptions = {}): Ledger {
  const config = Deno.env.get("SKIFF_LEDGER") ? undefined : loadConfig();
  const place = ledgerPlace(config);
  const timeout = options.timeout;
  if (pathExists(place.path)) return openLedger(place.path, { timeout });
  if (place.folder !== null) {
    const refusal = kindRefusal(folderKind(place.folder));
    if (refusal) throw refuse(place.folder, refusal);
  }
  if (!options.create) return openLedger(place.path, { create: false, timeout });
  if (options.rehearse) {
    // In memory even when another process makes the file meanwhile: a
    // rehearsal must never add a row of its own.
    using probe = rehearsalLedger(place.path);
    options.rehearse(probe);
  }
  if (place.folder !== null && config) {
    const refusal = placeRefusal(place.folder, config);
    if (refusal) throw refuse(place.folder, refusal);
    installSkill();
    setUpFolder(place.folder, { name: config.skiffAgent.name, skillDir: skillCopyDir() });
  }
  return openLedger(place.path, { timeout });
}
