/**
 * The rows of `ledger ls --json`, fast for a big ledger.
 *
 * `Ledger.list` makes a full {@linkcode TaskRow} for every row, and
 * `listToJson` an object of each, before all are stringified: most of a CLI
 * call's time for 10,000 rows. Here SQLite writes each row's JSON (two pieces
 * around the shown state) and only the fields the listing rules read become a
 * small object; {@linkcode buildList} applies the very same rules, and the
 * pieces are joined into the text. `tests/unit/ledger/list_json.test.ts` checks
 * that the result equals `listToJson` for every filter and liveness.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { buildList, type ResolvedFilter } from "./listing.ts";
import { hasNotes } from "./notes.ts";
import { absoluteResult } from "./result_path.ts";
import type { Entry, ListRow } from "./rows.ts";
import type { Liveness, StoredState } from "./states.ts";

/** The SQL function that resolves a relative result path, as `absoluteResult` does. */
const RESOLVE = "skiff_absolute_result";

/**
 * A stored result path made absolute. A plain relative path (no `.`, `..` or
 * empty segments) is joined to the folder here, faster than a call out to
 * {@linkcode absoluteResult}, which resolves any other.
 */
function absolute(r: string): string {
  return `CASE WHEN substr(${r}, 1, 1) = '/' THEN ${r}
    WHEN ${r} <> '' AND substr(${r}, -1) <> '/' AND instr(${r}, '//') = 0
      AND instr('/' || ${r} || '/', '/./') = 0 AND instr('/' || ${r} || '/', '/../') = 0
      THEN :folder || ${r}
    ELSE ${RESOLVE}(${r}) END`;
}

/**
 * Per row: what the listing rules read, then the row's JSON in two pieces,
 * the keys before the shown state (`id`, `uid`, `kind`) and those after it,
 * in the order of `json.ts`.
 */
function rowsSql(notes: boolean): string {
  return `SELECT t.id, t.parent_id, t.pane, t.pane_name, t.generation, t.state,
  json_object('id', t.id, 'uid', t.uid,
    'kind', CASE WHEN t.pane IS NULL THEN 'plan' ELSE 'task' END) AS head,
  json_object('stored_state', t.state, 'pane', t.pane, 'pane_name', t.pane_name,
    'generation', t.generation, 'task', t.task, 'result', ${absolute("t.result")},
    'ref', t.ref, 'parent', p.uid, 'created_at', t.created_at, 'updated_at', t.updated_at,
    'sent_at', t.sent_at, 'done_at', t.done_at, 'note', ${notes ? "n.note" : "NULL"}) AS rest
  FROM tasks t LEFT JOIN tasks p ON p.id = t.parent_id
  ${notes ? "LEFT JOIN task_notes n ON n.task_id = t.id" : ""} ORDER BY t.id`;
}

type RowRecord = [
  number,
  number | null,
  string | null,
  string | null,
  number | null,
  string,
  string,
  string,
];

/** A row as the listing rules see it, with its JSON pieces. */
interface JsonRow extends ListRow {
  /** `{"id":…,"uid":…,"kind":…}`. */
  head: string;
  /** `{"stored_state":…,…,"note":…}`. */
  rest: string;
}

function render(entry: Entry<JsonRow>): string {
  const { head, rest } = entry.row;
  const middle = `${head.slice(0, -1)},"state":"${entry.state}",${rest.slice(1)}`;
  if (!entry.tasks) return middle;
  return `${middle.slice(0, -1)},"tasks":[${entry.tasks.map(render).join(",")}]}`;
}

/**
 * The `rows` array of `ledger ls --json` as UTF-8 JSON bytes: the same rows as
 * `listToJson(buildList(rows, filter, liveness)).rows`, for the ledger in
 * `folder` (relative result paths resolve against it).
 */
export function listRowsJson(
  db: DatabaseSync,
  folder: string,
  filter: ResolvedFilter,
  liveness: Liveness,
): Uint8Array {
  db.function(RESOLVE, { deterministic: true }, (stored) => absoluteResult(String(stored), folder));
  const statement = db.prepare(rowsSql(hasNotes(db)));
  // Arrays are cheaper than an object per row (the method is missing from the types).
  (statement as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const records = statement.all({
    folder: folder.endsWith("/") ? folder : `${folder}/`,
  }) as unknown as RowRecord[];
  const rows: JsonRow[] = records.map((r) => ({
    id: r[0],
    parentId: r[1],
    pane: r[2],
    kind: r[2] === null ? "plan" : "task",
    paneName: r[3],
    generation: r[4],
    state: r[5] as StoredState,
    head: r[6],
    rest: r[7],
  }));
  const list = buildList(rows, filter, liveness);
  return new TextEncoder().encode(`[${list.entries.map(render).join(",")}]`);
}
