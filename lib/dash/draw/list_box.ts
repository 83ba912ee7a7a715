/**
 * Drawing the list: the Skiff agent's row, project, host and session
 * headings with their counts, and one line per pane, scrolled so that the
 * selection shows.
 *
 * @module
 */

import { agentIconState, watcherWord } from "../../overview/watcher.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { Box } from "./layout.ts";
import { type DashState, type ListRow, scrollTo, selectedRow } from "../model/mod.ts";
import { Row, STATE_STYLE, STYLE } from "./row.ts";
import { ago, clip } from "./text.ts";

function stateCell(row: Row, state: string, width: number): void {
  row.cell(state, width, STATE_STYLE[state] ?? "");
}

/**
 * A worktree's cell, after the age, from the listing's own fields (no
 * request per pane): the changes not yet on the base as `+added −removed`,
 * else `landed` once Skiff landed it and nothing new came since. It takes
 * what it needs, so the columns before it keep their places.
 */
function worktreeCell(row: Row, pane: ListedPane): void {
  const tree = pane.worktree;
  if (!tree) return;
  const pending = (pane.diff?.files ?? 0) > 0 || (tree.ahead ?? 0) > 0;
  if (!pending && tree.landed) {
    row.add("landed", STYLE.landed).add("  ");
    return;
  }
  if (!pane.diff) return;
  const { added, removed } = pane.diff;
  row.add(`+${added}`, added > 0 ? STYLE.added : STYLE.dim).add(" ");
  row.add(`−${removed}`, removed > 0 ? STYLE.removed : STYLE.dim).add("  ");
}

function paneLine(
  state: DashState,
  item: Extract<ListRow, { kind: "pane" }>,
  width: number,
  indent: number,
): string {
  const pane = item.pane;
  const selected = state.selected === pane.id;
  const row = new Row(width, selected ? STYLE.selected : "");
  row.add(selected ? "›" : " ").add(" ".repeat(indent));
  row.add(pane.unread ? "● " : "  ", STYLE.unread);
  const where = item.host ? `${item.host}:` : "";
  const project = state.sort === "attention" && pane.project ? `${pane.project}/` : "";
  const fixed = 9 + 9 + 4;
  const nameWidth = Math.max(8, Math.min(28, row.left - fixed - 10));
  let name = `${where}${project}${pane.name}`;
  if (item.branch) name += ` [${item.branch}]`;
  row.cell(clip(name, nameWidth), nameWidth + 1);
  row.cell(pane.agent ?? "-", 9, pane.agent ? "" : STYLE.dim);
  stateCell(row, pane.state, 9);
  row.cell(ago(pane.state_since, state.now), 4, STYLE.dim);
  worktreeCell(row, pane);
  if (pane.unread) row.add(pane.unread_reasons.join(","), STYLE.unread);
  return row.done();
}

function agentLine(state: DashState, pane: ListedPane | null, width: number): string {
  const view = state.view!;
  const selected = state.selected === "agent";
  const row = new Row(width, selected ? STYLE.selected : "");
  row.add(selected ? "›" : " ");
  const icon = agentIconState(view.watcher, pane, view.panes);
  row.add("⎈ ", icon === "alarm" ? STYLE.error : STYLE.agentRow);
  row.add(pane?.unread ? "● " : "  ", STYLE.unread);
  row.add(view.skipper.name, STYLE.bold).add("  ");
  row.add(pane?.agent ?? view.skipper.agent).add("  ");
  const status = pane ? pane.state : view.skipper.enabled ? "not started" : "off";
  row.add(status, STATE_STYLE[status] ?? "").add("  ");
  row.add("watcher: ", STYLE.dim);
  row.add(watcherWord(icon, view.watcher), icon === "alarm" ? STYLE.error : "");
  return row.done();
}

/** A group's counts: `3 panes · 1 working · 2 unread`. */
function countsText(c: Extract<ListRow, { kind: "project" }>["counts"]): string {
  const parts = [`${c.panes} pane${c.panes === 1 ? "" : "s"}`];
  if (c.working) parts.push(`${c.working} working`);
  if (c.waiting) parts.push(`${c.waiting} waiting`);
  if (c.unread) parts.push(`${c.unread} unread`);
  return parts.join(" · ");
}

function listLine(state: DashState, item: ListRow, width: number): string {
  switch (item.kind) {
    case "agent":
      return agentLine(state, item.pane, width);
    case "project": {
      const row = new Row(width);
      row.add(` ${item.name}`, STYLE.project);
      row.add(`  ${countsText(item.counts)}`, STYLE.dim);
      if (!item.known && item.name !== "No project") row.add("  (not in projects.toml)", STYLE.dim);
      return row.done();
    }
    case "host": {
      const row = new Row(width);
      row.add(` ⇄ ${item.name}`, STYLE.project);
      if (item.state === "down") {
        // When it was last reached and is tried next, first: a long why is cut at the row's end.
        const when = item.when ? ` (${item.when})` : "";
        row.add(`  unreachable${when}${item.why ? `: ${item.why}` : ""}`, STYLE.error);
      } else if (item.state === "unknown") {
        row.add("  linking…", STYLE.dim);
      } else {
        row.add(`  ${countsText(item.counts)}`, STYLE.dim);
      }
      return row.done();
    }
    case "session":
      return new Row(width).add(`   ${item.name}`, STYLE.dim).done();
    case "pane":
      return paneLine(state, item, width, item.depth * 2);
    case "note":
      return new Row(width).add(`   ${item.text}`, STYLE.dim).done();
  }
}

/** The list's rows that fit `box`, scrolled to keep the selection in view. */
export function listBox(state: DashState, box: Box, rows: ListRow[]): string[] {
  const selected = selectedRow(state, rows);
  const index = Math.max(0, rows.indexOf(selected!));
  state.listTop = scrollTo(
    Math.min(state.listTop, Math.max(0, rows.length - box.height)),
    index,
    box.height,
  );
  const lines: string[] = [];
  for (let i = 0; i < box.height; i++) {
    const item = rows[state.listTop + i];
    lines.push(item ? listLine(state, item, box.width) : new Row(box.width).done());
  }
  return lines;
}

/** The pane the preview shows for the selection, if any. */
export function previewPane(state: DashState, rows?: ListRow[]): ListedPane | null {
  const row = selectedRow(state, rows);
  if (!row) return null;
  if (row.kind === "agent" || row.kind === "pane") return row.pane;
  return null;
}
