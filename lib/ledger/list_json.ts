/**
 * The rows of `ledger ls --json`, fast for a big ledger.
 *
 * `Ledger.list` makes a full {@linkcode TaskRow} for every row, and
 * `listToJson` an object of each, before all are stringified: most of a CLI
 * call's time for 10,000 rows. Here SQLite applies the listing rules of
 * `listing.ts` and `states.ts` (shown states from the liveness, plans with
 * their tasks, the filters) and writes each listed entry's JSON, a plan with
 * its tasks inside, as bytes; no row becomes a JavaScript value. The
 * statement is written for the filter at hand, so it tests only what the
 * filter asks. `tests/unit/ledger/list_json.test.ts` checks that the result
 * is, byte for byte, `JSON.stringify` of `listToJson`'s rows for every filter
 * and liveness.
 *
 * @module
 */

import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { paneFilter, type ResolvedFilter } from "./listing.ts";
import { hasNotes } from "./notes.ts";
import { absoluteResult } from "./result_path.ts";
import type { Liveness } from "./states.ts";

/** The SQL function that resolves a relative result path, as `absoluteResult` does. */
const RESOLVE = "skiff_absolute_result";

/**
 * A stored result path made absolute. A plain relative path (no empty, `.`,
 * `..` or other dot-led segment: `/path/` holds no `//` and no `/.`) is
 * joined to the folder here; any other goes to {@linkcode absoluteResult}.
 */
function absolute(r: string): string {
  return `CASE WHEN substr(${r}, 1, 1) = '/' THEN ${r}
    WHEN '/' || ${r} || '/' NOT GLOB '*/[./]*' THEN :folder || ${r}
    ELSE ${RESOLVE}(${r}) END`;
}

/** What the statement is written for. */
interface Shape {
  /** Whether the live panes are known (`:live` holds them). */
  live: boolean;
  /** Whether the ledger has the notes table. */
  notes: boolean;
  /** The filter. */
  filter: ResolvedFilter;
}

/** The shown state of task row `t` (`taskShownState`); `l` is its row of `live`, if any. */
function taskShown(t: string, l: string, live: boolean): string {
  const done = `CASE WHEN ${t}.landed_at IS NULL THEN 'done' ELSE 'landed' END`;
  if (!live) return `CASE WHEN ${t}.state = 'done' THEN ${done} ELSE ${t}.state END`;
  return `CASE WHEN ${t}.state = 'done' THEN ${done}
    WHEN ${t}.host IS NOT NULL AND EXISTS (SELECT 1 FROM live u WHERE u.pane = ${t}.host || ':')
      THEN 'unreachable'
    WHEN ${t}.host IS NOT NULL AND NOT EXISTS (SELECT 1 FROM live u WHERE u.pane = ${t}.host || ':*')
      THEN ${t}.state
    WHEN ${l}.pane IS NULL THEN 'gone'
    WHEN ${t}.state NOT IN ('sent', 'blocked') OR ${l}.generation IS NULL
      OR ${t}.generation IS NULL OR ${l}.generation = ${t}.generation THEN ${t}.state
    ELSE 'interrupted' END`;
}

/**
 * The shown state of plan row `t` (`planShownState`): from whether all of its
 * tasks are done (1), not all (0), or it has none (NULL: `open` while stored `sent`).
 */
function planShown(t: string): string {
  return `CASE (SELECT min(c.state = 'done') FROM tasks c WHERE c.parent_id = ${t}.id
      AND c.pane IS NOT NULL)
    WHEN 1 THEN 'done' WHEN 0 THEN 'sent'
    ELSE CASE ${t}.state WHEN 'sent' THEN 'open' ELSE ${t}.state END END`;
}

/** Whether a shown state passes the filter (the states given, else all or the open ones). */
function stateOk(shown: string, filter: ResolvedFilter): string {
  if (filter.state !== undefined) {
    const states = typeof filter.state === "string" ? [filter.state] : filter.state;
    // Shown states are checked words, so they can be written into the statement.
    return `(${shown}) IN (${states.map((s) => `'${s}'`).join(", ")})`;
  }
  return filter.all ? "1" : `(${shown}) NOT IN ('done', 'landed')`;
}

/** Whether task row `t` passes the pane filter (`:host` is the filter's host, or NULL). */
function paneOk(t: string, filter: ResolvedFilter): string {
  return filter.pane === undefined
    ? "1"
    : `(${t}.host IS :host AND (${t}.pane = :pane OR ${t}.pane_name = :pane))`;
}

/** Row `t`'s JSON object, in the key order of `json.ts`. */
function rowJson(t: string, kind: string, shown: string, parent: string, notes: boolean): string {
  return `json_object('id', ${t}.id, 'uid', ${t}.uid, 'kind', '${kind}', 'state', ${shown},
    'stored_state', ${t}.state, 'host', ${t}.host, 'pane', ${t}.pane, 'pane_name', ${t}.pane_name,
    'generation', ${t}.generation, 'branch', ${t}.branch, 'task', ${t}.task, 'result', ${
    absolute(`${t}.result`)
  },
    'ref', ${t}.ref, 'parent', ${parent}, 'created_at', ${t}.created_at,
    'updated_at', ${t}.updated_at, 'sent_at', ${t}.sent_at, 'done_at', ${t}.done_at,
    'note', ${notes ? `(SELECT note FROM task_notes WHERE task_id = ${t}.id)` : "NULL"},
    'worktree', ${t}.worktree, 'landed', CASE WHEN ${t}.landed_at IS NULL THEN NULL ELSE
      json_object('into', ${t}.landed_into, 'from', ${t}.landed_from, 'to', ${t}.landed_to,
        'range', ${t}.landed_from || '..' || ${t}.landed_to, 'at', ${t}.landed_at) END)`;
}

/**
 * The statement: one result row per listed entry, in row order, its JSON as
 * a BLOB. A plan's tasks are those under it (`c`), kept by the filter, in row
 * order: an aggregate takes the rows of an ordered subquery in that order
 * (the index on `parent_id` gives it, so nothing is sorted). A plan's object
 * gets `tasks` in place of its closing brace: its last value, `landed`, is
 * null for a plan (only tasks land), so `rtrim` takes that one brace only.
 */
function listSql({ live, notes, filter }: Shape): string {
  const liveJoin = (t: string, l: string) =>
    live
      ? `LEFT JOIN live ${l} ON ${l}.pane =
        CASE WHEN ${t}.host IS NULL THEN ${t}.pane ELSE ${t}.host || ':' || ${t}.pane END`
      : "";
  const keptTask = (t: string, l: string) =>
    `${stateOk(taskShown(t, l, live), filter)} AND ${paneOk(t, filter)}`;
  const keptTasks = (where: string) =>
    `FROM tasks c ${liveJoin("c", "cl")}
      WHERE c.parent_id = ${where} AND c.pane IS NOT NULL AND ${keptTask("c", "cl")}`;
  const tasks = `coalesce((SELECT group_concat(json, ',') FROM (
      SELECT ${rowJson("c", "task", taskShown("c", "cl", live), "t.uid", notes)} AS json
      ${keptTasks("t.id")} ORDER BY c.id)), '')`;
  // Which plans are listed: the one asked for; else those that pass the state
  // filter themselves (never under a pane filter), and those with a kept task.
  const planListed = filter.planId !== null
    ? "t.id = :plan"
    : `${filter.pane === undefined ? `${stateOk(planShown("t"), filter)} OR ` : ""}
      EXISTS (SELECT 1 ${keptTasks("t.id")})`;
  // Tasks are listed on their own when no plan is asked for and they sit under none.
  const taskListed = filter.planId !== null
    ? "0"
    : `(p.id IS NULL OR p.pane IS NOT NULL) AND ${keptTask("t", "l")}`;
  return `${
    live
      ? "WITH live AS MATERIALIZED (SELECT key AS pane, value AS generation FROM json_each(:live))"
      : ""
  }
  SELECT CAST(CASE WHEN t.pane IS NULL
      THEN rtrim(${rowJson("t", "plan", planShown("t"), "p.uid", notes)}, '}')
        || ',"tasks":[' || ${tasks} || ']}'
      ELSE ${rowJson("t", "task", taskShown("t", "l", live), "p.uid", notes)} END AS BLOB)
  FROM tasks t
  LEFT JOIN tasks p ON p.id = t.parent_id
  ${liveJoin("t", "l")}
  WHERE CASE WHEN t.pane IS NULL THEN ${planListed} ELSE ${taskListed} END
  ORDER BY t.id`;
}

/** The live panes as the statement's `:live`: pane id to generation. */
function liveJson(liveness: ReadonlyMap<string, { generation: number | null }>): string {
  const live: Record<string, number | null> = {};
  for (const [pane, { generation }] of liveness) live[pane] = generation;
  return JSON.stringify(live);
}

const encoder = new TextEncoder();

/**
 * The `rows` array of `ledger ls --json` as UTF-8 JSON bytes, in pieces to
 * write one after the other (joined, they would be copied once more): the
 * same rows as `listToJson(buildList(rows, filter, liveness)).rows`, for the
 * ledger in `folder` (relative result paths resolve against it).
 */
export function listRowsJson(
  db: DatabaseSync,
  folder: string,
  filter: ResolvedFilter,
  liveness: Liveness,
): Uint8Array[] {
  db.function(RESOLVE, { deterministic: true }, (stored) => absoluteResult(String(stored), folder));
  const sql = listSql({ live: liveness !== null, notes: hasNotes(db), filter });
  const params: Record<string, SQLInputValue> = {
    folder: folder.endsWith("/") ? folder : `${folder}/`,
  };
  if (liveness !== null) params.live = liveJson(liveness);
  if (filter.pane !== undefined) {
    const wanted = paneFilter(filter.pane);
    params.pane = wanted.pane;
    params.host = wanted.host;
  }
  if (filter.planId !== null) params.plan = filter.planId;
  const statement = db.prepare(sql);
  // Arrays are cheaper than an object per row (the method is missing from the types).
  (statement as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const entries = statement.all(params) as unknown as [Uint8Array][];
  const parts: Uint8Array[] = [encoder.encode("[")];
  const comma = encoder.encode(",");
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) parts.push(comma);
    parts.push(entries[i][0]);
  }
  parts.push(encoder.encode("]"));
  return parts;
}
