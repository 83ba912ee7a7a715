/**
 * The ledger within a project scope: the tasks on the project's panes
 * (this machine's and each host's), and the plans that hold any of them.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { parsePaneRef, type SkiffdAccess, withPane } from "../hosts/resolve.ts";
import type { LedgerPane, TaskJson, TaskRow } from "../ledger/mod.ts";
import { lookUpPane } from "../tasks/liveness.ts";
import { listPanes } from "./list_panes.ts";
import { checkScope } from "./scope.ts";

/** The options every ledger operation takes. */
export interface LedgerOpOptions {
  /** Where connections come from (default: one for this call). */
  access?: SkiffdAccess;
  /** Only the rows of this project's panes; another row is `NOT_FOUND`. */
  project?: string;
}

/** The panes of a project, as keys `HOST:ID` (`:ID` for this machine's). */
export type ScopePanes = ReadonlySet<string>;

function key(host: string | null, pane: string | null): string {
  return `${host ?? ""}:${pane ?? ""}`;
}

/** The panes of project `project` now, on this machine and every host that answers in time. */
export async function scopePanes(
  project: string,
  options: { access?: SkiffdAccess } = {},
): Promise<ScopePanes> {
  const { panes } = await listPanes({ project, allHosts: true, access: options.access });
  return new Set(panes.map((p) => key(p.host, p.id)));
}

/** Whether task row `row` (stored or JSON) is on one of `panes`. */
export function rowInScope(
  row: Pick<TaskRow, "host" | "pane"> | Pick<TaskJson, "host" | "pane">,
  panes: ScopePanes,
): boolean {
  return row.pane !== null && panes.has(key(row.host, row.pane));
}

/**
 * `rows` (JSON, plans holding their tasks) cut to `panes`: the tasks on
 * them, and the plans with at least one such task, holding only those.
 */
export function rowsInScope(rows: TaskJson[], panes: ScopePanes): TaskJson[] {
  const kept: TaskJson[] = [];
  for (const row of rows) {
    if (row.kind === "task") {
      if (rowInScope(row, panes)) kept.push(row);
      continue;
    }
    const tasks = (row.tasks ?? []).filter((t) => rowInScope(t, panes));
    if (tasks.length > 0) kept.push({ ...row, tasks });
  }
  return kept;
}

/** The error for a row outside the scope: the same as for a row that is not there. */
export function rowOutOfScope(ref: string, project: string): SkiffError {
  return new SkiffError(`No task '${ref}' in project ${project}'s panes`, {
    exit: "NOT_FOUND",
    details: { ref, project },
  });
}

/**
 * Looks pane `ref` up as the ledger stores it (`PANE` or `HOST:PANE`),
 * within the project when one is given (`NOT_FOUND` outside it).
 */
export async function lookUpScopedPane(
  ref: string,
  options: LedgerOpOptions,
): Promise<LedgerPane> {
  if (options.project === undefined) return await lookUpPane(ref, { access: options.access });
  const project = options.project;
  const pane = await withPane(
    ref,
    async (client, pane) => (await checkScope(client, pane, project))!,
    { access: options.access },
  );
  return {
    id: pane.id,
    host: parsePaneRef(ref).host,
    name: pane.name,
    generation: pane.generation,
  };
}
