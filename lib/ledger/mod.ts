/**
 * The ledger: the Skiff agent's record of the tasks it sends, kept in a
 * SQLite file (`ledger.db`) in the agent's folder.
 *
 * - Open it with {@linkcode openLedger}; find its path with {@linkcode ledgerPath}.
 * - A {@linkcode Ledger} adds, finds, lists, changes and removes rows.
 * - {@linkcode toJson} and {@linkcode listToJson} give the `--json` shape.
 *
 * Every user-facing failure is a `SkiffError` with an exit code's name:
 * `USAGE` (bad input, ambiguous ref), `NOT_FOUND` (unknown ref), `CONFLICT`
 * (the request clashes with the rows), `DATA` (a foreign, damaged, newer or
 * locked file, or a malformed `ledger.md`; the file is left untouched).
 *
 * @example Usage
 * ```ts
 * import { ledgerPath, openLedger } from "./mod.ts";
 *
 * using ledger = openLedger(ledgerPath());
 * const row = ledger.add({ pane: { id: "p3", name: "reviewer", generation: 1 }, task: "Review" });
 * ledger.setSent(row.uid, 1);
 * ```
 *
 * @module
 */

export {
  type ClaimOptions,
  claimsDir,
  SEND_CLAIMS_SCHEMA,
  type SendFacts,
  type SendOutcome,
} from "./claim.ts";
export { TASK_NOTES_SCHEMA } from "./notes.ts";
export { DEFAULT_TIMEOUT_MS, isLockedError } from "./db.ts";
export { type ImportReport, type MdRow, parseLedgerMd } from "./import_md.ts";
export {
  entryToJson,
  type LandingJson,
  listToJson,
  type Shown,
  type TaskJson,
  toJson,
} from "./json.ts";
export {
  type AddInput,
  type LedgerPane,
  MAX_TASK_BYTES,
  type RemoveOptions,
  type UpdateInput,
} from "./inputs.ts";
export { Ledger, type LedgerSettings } from "./ledger.ts";
export type { WorktreeTasks } from "./landed.ts";
export { buildList, entryOf, type ListFilter, type ResolvedFilter } from "./listing.ts";
export type { Migration } from "./migrate.ts";
export {
  LEDGER_FILE,
  LEDGER_MD_FILE,
  ledgerPath,
  type LedgerPathOptions,
  openLedger,
  type OpenOptions,
  rehearsalLedger,
} from "./open.ts";
export { MIN_PREFIX, type ParsedRef, parseRef, type RefCandidate } from "./refs.ts";
export {
  EMPTY_SLUG,
  localDate,
  resultPathFor,
  type ResultPathInput,
  SLUG_MAX,
  slugify,
} from "./result_path.ts";
export type { Entry, ListResult, TaskLanding, TaskRow } from "./rows.ts";
export { LEDGER_VERSION } from "./schema.ts";
export { ledgerStamp } from "./stamp.ts";
export {
  addHostLiveness,
  isShownState,
  isStoredState,
  listedKey,
  type Liveness,
  paneKey,
  type PaneLiveness,
  planShownState,
  SHOWN_STATES,
  type ShownState,
  type StateInput,
  STORED_STATES,
  type StoredState,
  taskShownState,
  unreachableKey,
} from "./states.ts";
