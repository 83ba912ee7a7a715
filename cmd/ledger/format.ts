/**
 * Text forms of ledger rows, for `skiff ledger ls`, `show` and the commands
 * that change a row.
 *
 * @module
 */

import { table, terminalWidth } from "../../lib/cli/mod.ts";
import type { Entry, TaskRow } from "../../lib/ledger/mod.ts";

/** The first line of a task text, with `…` when more lines follow. */
export function firstLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines.length > 1 ? `${lines[0]} …` : lines[0];
}

/** A row's pane for people: `p3 (reviewer)`, `gpu1:p3 (reviewer)` on a host, or `plan`. */
export function paneText(row: TaskRow): string {
  if (row.pane === null) return "plan";
  const pane = row.host ? `${row.host}:${row.pane}` : row.pane;
  return row.paneName ? `${pane} (${row.paneName})` : pane;
}

/**
 * The shown state, with the stored one when they differ: `interrupted (sent)`.
 * An `open` plan is stored `sent` as every plan is, which says nothing.
 */
export function stateText(entry: Entry): string {
  return entry.state === entry.row.state || entry.state === "open"
    ? entry.state
    : `${entry.state} (${entry.row.state})`;
}

function cells(entry: Entry, indent: string): string[] {
  const row = entry.row;
  return [indent + row.uid, String(row.id), stateText(entry), paneText(row), firstLine(row.task)];
}

/**
 * A table of entries: each plan with its tasks indented under it, then the
 * tasks of no plan, in row id order as given.
 */
export function entriesTable(entries: readonly Entry[]): string {
  const rows: string[][] = [];
  for (const entry of entries) {
    rows.push(cells(entry, ""));
    for (const task of entry.tasks ?? []) rows.push(cells(task, "  "));
  }
  return table(["UID", "ID", "STATE", "PANE", "TASK"], rows, { width: terminalWidth() });
}

/** Every field of one entry, one a line; a plan's tasks follow as a table. */
export function entryDetails(entry: Entry): string {
  const row = entry.row;
  const pane = row.pane === null
    ? "- (a plan)"
    : `${paneText(row)}, generation ${row.generation ?? "unknown"}`;
  const fields: [string, string][] = [
    ["uid", row.uid],
    ["id", String(row.id)],
    ["kind", row.kind],
    ["state", entry.state === row.state ? row.state : `${entry.state} (stored: ${row.state})`],
    ...(row.note ? [["note", row.note] as [string, string]] : []),
    ["pane", pane],
    ...(row.kind === "task" ? [["branch", row.branch ?? "-"] as [string, string]] : []),
    ["result", row.result],
    ["ref", row.ref ?? "-"],
    ["plan", row.parentUid ?? "-"],
    ["created", row.createdAt],
    ["updated", row.updatedAt],
    ["sent", row.sentAt ?? "-"],
    ["done", row.doneAt ?? "-"],
    ...(row.landed
      ? [[
        "landed",
        `${row.landed.from}..${row.landed.to} on ${row.landed.into}, ${row.landed.at}`,
      ] as [string, string]]
      : []),
  ];
  const lines = fields.map(([key, value]) => `${`${key}:`.padEnd(9)}${value}`);
  const text = row.task.trim().split(/\r?\n/);
  // The task's text goes just before its result.
  lines.splice(
    fields.findIndex(([key]) => key === "result"),
    0,
    `${"task:".padEnd(9)}${text[0]}`,
    ...text.slice(1).map((l) => " ".repeat(9) + l),
  );
  if (row.kind === "plan") {
    const tasks = entry.tasks ?? [];
    lines.push("");
    lines.push(tasks.length === 0 ? "No tasks in this plan." : entriesTable(tasks));
  }
  return lines.join("\n");
}

/** One line about a changed row: `7c2e91ab  sent  p3 (reviewer)  Review the parser`. */
export function rowLine(row: TaskRow): string {
  return `${row.uid}  ${row.state}  ${paneText(row)}  ${firstLine(row.task)}`;
}
