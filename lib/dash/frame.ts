/**
 * Drawing one frame: every row of the terminal as text with SGR codes,
 * each exactly as wide as the terminal, from the state, the layout and the
 * preview's lines. The painter then writes only the rows that changed.
 *
 * @module
 */

import { agentIconState, watcherWord } from "../overview/watcher.ts";
import { firstLine, paneTasks } from "../overview/tasks.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { Box, Layout } from "./layout.ts";
import { LEDGER_HINTS, LEDGER_KEYS, LIST_HINTS, LIST_KEYS, RESULT_HINTS } from "./keymap.ts";
import type { ListRow } from "./rows.ts";
import { type DashState, ledgerLines, rowsOf, scrollTo, selectedRow } from "./state.ts";
import { ago, clip, fit, textWidth } from "./text.ts";

/** SGR parameters by meaning. */
const STYLE = {
  bold: "1",
  dim: "2",
  inverse: "7",
  header: "7",
  selected: "7",
  error: "1;31",
  unread: "1;33",
  project: "1",
  agentRow: "1;36",
} as const;

/** The colour of each pane state. */
const STATE_STYLE: Record<string, string> = {
  working: "36",
  waiting: "1;33",
  idle: "32",
  starting: "34",
  shell: "2",
  exited: "31",
};

/** Builds one row of cells from styled pieces, never wider than its width. */
class Row {
  #out = "";
  #used = 0;
  readonly #width: number;
  readonly #base: string;

  constructor(width: number, base = "") {
    this.#width = width;
    this.#base = base;
    if (base !== "") this.#out = `\x1b[0;${base}m`;
  }

  /** Cells left. */
  get left(): number {
    return this.#width - this.#used;
  }

  /** Adds `text` (cut to what is left) in `style`. */
  add(text: string, style = ""): this {
    const cut = clip(text, this.left);
    if (cut === "") return this;
    const sgr = [this.#base, style].filter(Boolean).join(";");
    this.#out += style === ""
      ? cut
      : `\x1b[0;${sgr}m${cut}\x1b[0${this.#base ? `;${this.#base}` : ""}m`;
    this.#used += textWidth(cut);
    return this;
  }

  /** Adds `text` padded to `width` cells. */
  cell(text: string, width: number, style = ""): this {
    return this.add(fit(text, Math.min(width, this.left)), style);
  }

  /** Adds SGR text already cut to fit (a preview line) and `width` cells it takes. */
  raw(text: string, width: number): this {
    this.#out += text + `\x1b[0${this.#base ? `;${this.#base}` : ""}m`;
    this.#used += width;
    return this;
  }

  /** The row, padded to its width. */
  done(): string {
    return this.#out + " ".repeat(Math.max(0, this.left)) + "\x1b[0m";
  }
}

/** The visible width of SGR text. */
function visibleWidth(text: string): number {
  return textWidth(text.replace(/\x1b\[[0-9;:]*m/g, ""));
}

function stateCell(row: Row, state: string, width: number): void {
  row.cell(state, width, STATE_STYLE[state] ?? "");
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
  if (pane.unread) row.add(pane.unread_reasons.join(","), STYLE.unread);
  return row.done();
}

function agentLine(state: DashState, pane: PaneInfo | null, width: number): string {
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

function listLine(state: DashState, item: ListRow, width: number): string {
  switch (item.kind) {
    case "agent":
      return agentLine(state, item.pane, width);
    case "project": {
      const row = new Row(width);
      row.add(` ${item.name}`, STYLE.project);
      const c = item.counts;
      const parts = [`${c.panes} pane${c.panes === 1 ? "" : "s"}`];
      if (c.working) parts.push(`${c.working} working`);
      if (c.waiting) parts.push(`${c.waiting} waiting`);
      if (c.unread) parts.push(`${c.unread} unread`);
      row.add(`  ${parts.join(" · ")}`, STYLE.dim);
      if (!item.known && item.name !== "No project") row.add("  (not in projects.toml)", STYLE.dim);
      return row.done();
    }
    case "host": {
      const row = new Row(width);
      row.add(` ⇄ ${item.name}`, STYLE.project);
      if (item.state === "down") {
        row.add(`  unreachable${item.why ? `: ${item.why}` : ""}`, STYLE.error);
      } else if (item.state === "unknown") {
        row.add("  linking…", STYLE.dim);
      } else {
        const c = item.counts;
        const parts = [`${c.panes} pane${c.panes === 1 ? "" : "s"}`];
        if (c.working) parts.push(`${c.working} working`);
        if (c.waiting) parts.push(`${c.waiting} waiting`);
        if (c.unread) parts.push(`${c.unread} unread`);
        row.add(`  ${parts.join(" · ")}`, STYLE.dim);
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

function listBox(state: DashState, box: Box, rows: ListRow[]): string[] {
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
export function previewPane(state: DashState, rows?: ListRow[]): PaneInfo | null {
  const row = selectedRow(state, rows);
  if (!row) return null;
  if (row.kind === "agent" || row.kind === "pane") return row.pane;
  return null;
}

/** The colour of each task state. */
const TASK_STYLE: Record<string, string> = {
  done: "32",
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

function home(path: string): string {
  const h = Deno.env.get("HOME");
  return h && path.startsWith(h + "/") ? `~${path.slice(h.length)}` : path;
}

/** What the preview box shows: a title, the pane's tasks, then its screen. */
function previewBox(
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
    if (pane.worktree) facts.push(`branch ${pane.worktree.branch}`);
    facts.push(home(pane.cwd));
    title.add(facts.join(" · "));
    lines.push(title.done());
    // A pane of another host is keyed HOST:ID; its tasks are stored with the host.
    const host = (pane as PaneInfo & { host?: string }).host ?? null;
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

function ledgerBox(state: DashState, box: Box): string[] {
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

function resultBox(state: DashState, box: Box): string[] {
  const result = state.result!;
  const lines = [new Row(box.width, STYLE.inverse).add(` ${home(result.path)}`).done()];
  const height = box.height - 1;
  result.top = Math.max(0, Math.min(result.top, result.lines.length - height));
  for (const line of result.lines.slice(result.top, result.top + height)) {
    lines.push(new Row(box.width).add(line.replace(/\t/g, "    ")).done());
  }
  while (lines.length < box.height) lines.push(new Row(box.width).done());
  return lines;
}

function helpBox(box: Box, detachKey: string): string[] {
  const lines = [
    new Row(box.width, STYLE.inverse).add(" Keys ", STYLE.bold).add("(any key closes)").done(),
  ];
  for (const key of LIST_KEYS) {
    const what = key.what.replace("Ctrl+\\", detachKey);
    lines.push(new Row(box.width).cell(`  ${key.keys}`, 12, STYLE.bold).add(what).done());
  }
  lines.push(new Row(box.width).add("  In the ledger:", STYLE.dim).done());
  for (const key of LEDGER_KEYS) {
    lines.push(new Row(box.width).cell(`  ${key.keys}`, 12, STYLE.bold).add(key.what).done());
  }
  while (lines.length < box.height) lines.push(new Row(box.width).done());
  return lines.slice(0, box.height);
}

function headerLine(state: DashState, width: number): string {
  const row = new Row(width, STYLE.header);
  const panes = state.view?.panes ?? [];
  row.add(" Skiff ", STYLE.bold);
  const waiting = panes.filter((p) => p.state === "waiting").length;
  const unread = panes.filter((p) => p.unread).length;
  const parts = [`${panes.length} pane${panes.length === 1 ? "" : "s"}`];
  if (waiting) parts.push(`${waiting} waiting`);
  if (unread) parts.push(`${unread} unread`);
  parts.push(`sort: ${state.sort === "tree" ? "projects" : "attention"}`);
  if (state.filter) parts.push(`filter: ${state.filter}`);
  row.add(parts.join(" · "));
  if (state.link !== "live") row.add("  · reconnecting to skiffd…", STYLE.error);
  return row.done();
}

function statusLine(state: DashState, width: number): string {
  const row = new Row(width);
  if (state.prompt) {
    row.add(state.prompt.label, STYLE.bold);
    const text = state.prompt.text;
    // The end of a long text shows, as in a shell.
    const room = Math.max(1, row.left - 1);
    const shown = textWidth(text) > room ? "…" + [...text].slice(-(room - 1)).join("") : text;
    row.add(shown).add("█");
    return row.done();
  }
  if (state.status) {
    return row.add(state.status.text, state.status.tone === "error" ? STYLE.error : "").done();
  }
  const hints = state.mode === "ledger"
    ? LEDGER_HINTS
    : state.mode === "result"
    ? RESULT_HINTS
    : LIST_HINTS;
  return row.add(hints, STYLE.dim).done();
}

/** Every row of the frame. */
export function renderFrame(
  state: DashState,
  layout: Layout,
  preview: { lines: (width: number, height: number) => string[]; problem?: string },
): string[] {
  const lines: string[] = new Array(layout.rows).fill("");
  lines[layout.header.y] = headerLine(state, layout.cols);
  const body: Box = { x: 0, y: 1, width: layout.cols, height: Math.max(0, layout.rows - 2) };
  if (!state.view) {
    for (let y = 1; y < layout.rows - 1; y++) lines[y] = new Row(layout.cols).done();
    lines[1] = new Row(layout.cols).add("  Listing panes…", STYLE.dim).done();
  } else if (state.mode === "help") {
    helpBox(body, state.detachKey).forEach((line, i) => lines[body.y + i] = line);
  } else if (state.mode === "ledger") {
    ledgerBox(state, body).forEach((line, i) => lines[body.y + i] = line);
  } else if (state.mode === "result" && state.result) {
    resultBox(state, body).forEach((line, i) => lines[body.y + i] = line);
  } else {
    // The rows are worked out once a frame: the list and the preview share them.
    const rows = rowsOf(state);
    const list = listBox(state, layout.list, rows);
    const side = layout.preview
      ? previewBox(state, layout.preview, preview.lines, preview.problem, rows)
      : [];
    if (layout.split?.kind === "beside" && layout.preview) {
      for (let i = 0; i < layout.list.height; i++) {
        lines[layout.list.y + i] = list[i] + "\x1b[2m│\x1b[0m" + side[i];
      }
    } else {
      list.forEach((line, i) => lines[layout.list.y + i] = line);
      if (layout.split && layout.preview) {
        lines[layout.split.at] = `\x1b[2m${"─".repeat(layout.cols)}\x1b[0m`;
        side.forEach((line, i) => lines[layout.preview!.y + i] = line);
      }
    }
  }
  if (layout.rows > 1) lines[layout.status.y] = statusLine(state, layout.cols);
  return lines;
}
