/**
 * Importing an old `ledger.md`: the Markdown ledger that came before
 * `ledger.db`. The format is described for users in `LEDGER_MD.md`.
 *
 * ## Format
 *
 * Any lines before the table (a title, notes) are skipped. The table's first
 * line is the header, the second the delimiter row (`|---|---|`), and each
 * later line is one row, in ledger order. After the table only blank lines may
 * follow. Every table line starts with `|`; the closing `|` is optional.
 *
 * | column      | needed | content                                                     |
 * |-------------|--------|-------------------------------------------------------------|
 * | `id`        | yes    | the row id: a positive integer, rising from row to row      |
 * | `state`     | yes    | `sent`, `pending`, `blocked` or `done`                      |
 * | `pane`      | yes    | the pane id, such as `p3`; empty for a plan                 |
 * | `task`      | yes    | the task text; `<br>` stands for a line break               |
 * | `parent`    | no     | the id of the row's plan, which must come earlier; or empty |
 * | `pane_name` | no     | the pane's name; empty for a plan                           |
 * | `result`    | no     | the result path, relative to the ledger's folder or absolute; empty to compute it |
 * | `ref`       | no     | free text                                                   |
 *
 * Columns may come in any order; header names ignore case, and a space may
 * stand for `_`. In a cell, `\|` is a literal `|` and `\\` a literal `\`.
 * Imported rows keep their ids and get fresh uids. Their generation is
 * unknown, so they never show `interrupted`.
 *
 * Any problem stops the whole import with one error naming `file:line`.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../errors.ts";
import { resultPathFor } from "./result_path.ts";
import { isStoredState, type StoredState } from "./states.ts";
import { claimUid } from "./uid.ts";

/** One row read from `ledger.md`. */
export interface MdRow {
  /** The line it came from (1-based). */
  line: number;
  /** The row id. */
  id: number;
  /** The plan's row id, or `null`. */
  parent: number | null;
  /** The stored state. */
  state: StoredState;
  /** The pane id; `null` for a plan. */
  pane: string | null;
  /** The pane's name, or `null`. */
  paneName: string | null;
  /** The task text. */
  task: string;
  /** The result path as written, or `null` to compute it. */
  result: string | null;
  /** Free text, or `null`. */
  ref: string | null;
}

/** What importing `ledger.md` did. */
export interface ImportReport {
  /** The absolute path of the imported `ledger.md`. */
  from: string;
  /** How many rows were imported. */
  rows: number;
  /** Where the file was renamed to, or `null` if the rename failed. */
  backup: string | null;
}

const REQUIRED = ["id", "state", "pane", "task"];
const KNOWN = [...REQUIRED, "parent", "pane_name", "result", "ref"];

/** Splits one table line into cells, undoing `\|` and `\\`. Returns `null` if it is no table line. */
export function splitCells(line: string): string[] | null {
  const text = line.trim();
  if (!text.startsWith("|")) return null;
  const cells: string[] = [];
  let cell = "";
  let closed = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    closed = false;
    if (c === "\\" && (text[i + 1] === "|" || text[i + 1] === "\\")) {
      cell += text[++i];
    } else if (c === "|") {
      cells.push(cell.trim());
      cell = "";
      closed = true;
    } else {
      cell += c;
    }
  }
  if (!closed) cells.push(cell.trim());
  return cells;
}

/**
 * Reads the text of a `ledger.md`. `file` names it in errors. Throws a
 * {@linkcode SkiffError} with exit `DATA` and a `file:line` message at the
 * first problem. A file with only blank lines holds no rows.
 */
export function parseLedgerMd(text: string, file: string): MdRow[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const fail = (index: number, why: string): never => {
    throw new SkiffError(`Cannot import ${file}:${index + 1}: ${why}`, {
      exit: "DATA",
      details: { file, line: index + 1 },
    });
  };
  const start = lines.findIndex((l) => l.trim().startsWith("|"));
  if (start < 0) {
    if (lines.every((l) => l.trim() === "")) return [];
    return fail(0, "no task table found (a table starts with a '| id | state | …' line)");
  }
  const header = splitCells(lines[start])!.map((h) => h.toLowerCase().replace(/\s+/g, "_"));
  for (const [i, name] of header.entries()) {
    if (!KNOWN.includes(name)) fail(start, `unknown column '${name || "(empty)"}'`);
    if (header.indexOf(name) !== i) fail(start, `column '${name}' appears twice`);
  }
  const missing = REQUIRED.filter((n) => !header.includes(n));
  if (missing.length > 0) fail(start, `missing column ${missing.join(", ")}`);
  const delimiter = start + 1 < lines.length ? splitCells(lines[start + 1]) : null;
  if (
    !delimiter || delimiter.length !== header.length || !delimiter.every((c) => /^:?-+:?$/.test(c))
  ) {
    fail(start + 1, "expected the delimiter row (| --- | --- | …) under the header");
  }
  const rows: MdRow[] = [];
  const plans = new Map<number, MdRow>();
  let end = false;
  for (let i = start + 2; i < lines.length; i++) {
    const cells = splitCells(lines[i]);
    if (cells === null) {
      if (lines[i].trim() !== "") fail(i, "text after the table");
      end = true;
      continue;
    }
    if (end) fail(i, "a second table, or a table row after a blank line");
    if (cells.length !== header.length) {
      fail(
        i,
        `expected ${header.length} cells, found ${cells.length} (write a | in a cell as \\|)`,
      );
    }
    const get = (name: string) => {
      const at = header.indexOf(name);
      return at < 0 ? "" : cells[at];
    };
    const row = readRow(i, get, rows.at(-1)?.id ?? 0, plans, fail);
    rows.push(row);
    if (row.pane === null) plans.set(row.id, row);
  }
  return rows;
}

function readRow(
  i: number,
  get: (name: string) => string,
  lastId: number,
  plans: ReadonlyMap<number, MdRow>,
  fail: (index: number, why: string) => never,
): MdRow {
  const idText = get("id");
  if (!/^[0-9]+$/.test(idText) || Number(idText) < 1 || !Number.isSafeInteger(Number(idText))) {
    fail(i, `id '${idText}' is not a positive whole number`);
  }
  const id = Number(idText);
  if (id <= lastId) fail(i, `id ${id} does not rise above the row before (${lastId})`);
  const state = get("state").toLowerCase();
  if (!isStoredState(state)) fail(i, `state '${state}' is not sent, pending, blocked or done`);
  const pane = get("pane") || null;
  if (pane !== null && /\s/.test(pane)) fail(i, `pane '${pane}' has spaces (write the pane id)`);
  const paneName = get("pane_name") || null;
  if (pane === null && paneName !== null) fail(i, "a plan (empty pane) has no pane name");
  const task = get("task").replace(/<br\s*\/?>/gi, "\n");
  if (task.trim() === "") fail(i, "the task is empty");
  const parentText = get("parent");
  let parent: number | null = null;
  if (parentText !== "") {
    parent = Number(parentText);
    if (!/^[0-9]+$/.test(parentText)) fail(i, `parent '${parentText}' is not a row id`);
    if (pane === null) fail(i, "a plan cannot be in another plan");
    if (!plans.has(parent)) fail(i, `parent ${parent} is not a plan above this row`);
  }
  return {
    line: i + 1,
    id,
    parent,
    state: state as StoredState,
    pane,
    paneName,
    task,
    result: get("result") || null,
    ref: get("ref") || null,
  };
}

/**
 * Inserts rows read by {@linkcode parseLedgerMd} into a new, empty ledger.
 * Call it inside the transaction that creates the ledger. Each row keeps its
 * id and gets a new uid; an empty result gets a computed path.
 */
export function insertMdRows(db: DatabaseSync, rows: readonly MdRow[], now: Date): void {
  const stamp = now.toISOString();
  const results = new Map<number, string>();
  const insert = db.prepare(
    `INSERT INTO tasks (id, uid, parent_id, pane, pane_name, generation, state, task, result, ref,
      created_at, updated_at, sent_at, done_at)
     VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
  );
  for (const row of rows) {
    const uid = claimUid(db);
    const result = row.result ?? resultPathFor({
      uid,
      task: row.task,
      plan: row.pane === null,
      parentResult: row.parent === null ? null : results.get(row.parent),
      now,
    });
    results.set(row.id, result);
    insert.run(
      row.id,
      uid,
      row.parent,
      row.pane,
      row.paneName,
      row.state,
      row.task,
      result,
      row.ref,
      stamp,
      stamp,
    );
  }
}
