/**
 * Drawing the boxes that list tasks: the preview of the selected pane (its
 * facts, its tasks from the ledger, then its screen) and the ledger view.
 *
 * @module
 */

import { firstLine, paneTasks } from "../../overview/tasks.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { Box } from "./layout.ts";
import { type DashState, ledgerLines, type ListRow, scrollTo } from "../model/mod.ts";
import { home, Row, STYLE, visibleWidth } from "./row.ts";
import { previewPane } from "./list_box.ts";
import { textWidth } from "./text.ts";

/** The colour of each task state. */
const TASK_STYLE: Record<string, string> = {
  done: "32",
  landed: "1;32",
  sent: "36",
  pending: "",
  blocked: "33",
  interrupted: "1;33",
  gone: "31",
};

/**
 * A result path as the ledger view shows it: from the ledger's folder when it
 * is inside it (as the app shows it), else whole.
 */
function shownResult(result: string, ledgerPath: string): string {
  const folder = ledgerPath.slice(0, ledgerPath.lastIndexOf("/") + 1);
  return folder !== "" && result.startsWith(folder) ? result.slice(folder.length) : home(result);
}

/** A task's first line, then its result path in what is left (the task's text comes first). */
function taskText(row: Row, first: string, result: string): void {
  const room = row.left;
  const resultRoom = Math.min(textWidth(result) + 4, Math.floor(room * 0.4));
  const text = Math.min(textWidth(first), Math.max(12, room - resultRoom));
  row.cell(first, text + 2);
  row.add(`→ ${result}`, STYLE.dim);
}

/** A worktree as the preview's title says it: `branch skiff/x, 2 ahead, 1 behind, landed on main`. */
function worktreeFacts(tree: NonNullable<ListedPane["worktree"]>): string {
  const parts = [`branch ${tree.branch}`];
  if (tree.ahead) parts.push(`${tree.ahead} ahead`);
  if (tree.behind) parts.push(`${tree.behind} behind`);
  if (tree.landed) parts.push(`landed on ${tree.landed.into}`);
  return parts.join(", ");
}

/** What the preview box shows: a title, the pane's tasks, then its screen. */
export function previewBox(
  state: DashState,
  box: Box,
  screen: (width: number, height: number) => string[],
  problem: string | undefined,
  rows: ListRow[],
): string[] {
  const lines: string[] = [];
  const pane = previewPane(state, rows);
  const blank = () => new Row(box.width).done();
  if (!pane) {
    const view = state.view;
    const text = state.selected === "agent" && view
      ? view.skipper.enabled
        ? `${view.skipper.name} is not started: Enter or S starts it`
        : `${view.skipper.name} is off ('skiff settings set enabled true' turns it on)`
      : "";
    lines.push(new Row(box.width).add(text, STYLE.dim).done());
  } else {
    const title = new Row(box.width, STYLE.inverse);
    title.add(` ${pane.name} `, STYLE.bold).add(`(${pane.id}) `);
    const facts = [pane.agent ?? "no agent", pane.state];
    if (pane.status === "exited") {
      facts.push(pane.exit_signal ? `signal ${pane.exit_signal}` : `exit ${pane.exit_code ?? "?"}`);
    }
    if (pane.project) facts.push(pane.project);
    if (pane.worktree) facts.push(worktreeFacts(pane.worktree));
    facts.push(home(pane.cwd));
    title.add(facts.join(" · "));
    lines.push(title.done());
    // A pane of another host is keyed HOST:ID; its tasks are stored with the host.
    const host = (pane as ListedPane & { host?: string }).host ?? null;
    const tasks = paneTasks(
      state.ledger?.rows ?? [],
      host === null ? pane.id : pane.id.slice(host.length + 1),
      host,
    );
    const room = Math.max(0, Math.min(4, Math.floor((box.height - 1) / 3)));
    for (const task of tasks.slice(0, tasks.length > room ? room - 1 : room)) {
      const row = new Row(box.width);
      row.add(`${task.uid} `, STYLE.dim);
      row.cell(task.state, 12, TASK_STYLE[task.state] ?? "");
      taskText(row, task.first, shownResult(task.result, state.ledger?.path ?? ""));
      lines.push(row.done());
    }
    if (tasks.length > room && room > 0) {
      lines.push(
        new Row(box.width).add(`… ${tasks.length - room + 1} more in the ledger (l)`, STYLE.dim)
          .done(),
      );
    }
    if (problem) lines.push(new Row(box.width).add(problem, STYLE.error).done());
    const height = box.height - lines.length;
    for (const line of screen(box.width, height)) {
      lines.push(new Row(box.width).raw(line, Math.min(box.width, visibleWidth(line))).done());
    }
  }
  while (lines.length < box.height) lines.push(blank());
  return lines.slice(0, box.height);
}

/** The ledger view: its tasks and plans, scrolled to keep the selection in view. */
export function ledgerBox(state: DashState, box: Box): string[] {
  const lines: string[] = [];
  const ledger = state.ledger;
  const head = new Row(box.width, STYLE.inverse);
  head.add(" Ledger ", STYLE.bold).add(ledger ? home(ledger.path) : "reading…");
  lines.push(head.done());
  if (ledger?.problem) lines.push(new Row(box.width).add(ledger.problem, STYLE.error).done());
  const items = ledgerLines(ledger);
  if (ledger && items.length === 0 && !ledger.problem) {
    lines.push(new Row(box.width).add("The ledger is empty.", STYLE.dim).done());
  }
  const height = box.height - lines.length;
  let index = items.findIndex((item) => item.row.uid === state.ledgerSelected);
  if (index === -1 && items.length > 0) {
    index = 0;
    state.ledgerSelected = items[0].row.uid;
  }
  state.ledgerTop = scrollTo(state.ledgerTop, Math.max(0, index), height);
  for (const item of items.slice(state.ledgerTop, state.ledgerTop + height)) {
    const { row: task, nested } = item;
    const row = new Row(box.width, task.uid === state.ledgerSelected ? STYLE.selected : "");
    row.add(nested ? "  " : "");
    row.add(`${task.uid} `, STYLE.dim);
    row.cell(
      task.kind === "plan" ? "plan" : task.state,
      12,
      task.kind === "plan" ? STYLE.bold : "",
    );
    const pane = task.kind === "plan" ? "" : task.pane_name ?? task.pane ?? "";
    row.cell(pane, 14);
    taskText(row, firstLine(task.task), shownResult(task.result, ledger?.path ?? ""));
    lines.push(row.done());
  }
  while (lines.length < box.height) lines.push(new Row(box.width).done());
  return lines.slice(0, box.height);
}
