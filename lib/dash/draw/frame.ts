/**
 * Drawing one frame: every row of the terminal as text with SGR codes,
 * each exactly as wide as the terminal, from the state, the layout and the
 * preview's lines. The painter then writes only the rows that changed.
 *
 * @module
 */

import type { Box, Layout } from "./layout.ts";
import { LEDGER_HINTS, LEDGER_KEYS, LIST_HINTS, LIST_KEYS, RESULT_HINTS } from "./keymap.ts";
import { type DashState, type ListRow, rowsOf } from "../model/mod.ts";
import { home, Row, STYLE } from "./row.ts";
import { listBox } from "./list_box.ts";
import { ledgerBox, previewBox } from "./task_boxes.ts";
import { textWidth } from "./text.ts";
import { countPanes } from "../../protocol/workspace_order.ts";

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
  // Every pane the list shows: this machine's (counted by skiffd when its listing holds a first
  // screen's only) and those of the hosts that answer.
  const view = state.view;
  const here = view?.cut?.counts ?? countPanes(view?.panes ?? []);
  const far = countPanes((view?.hosts ?? []).flatMap((host) => host.panes));
  row.add(" Skiff ", STYLE.bold);
  const count = here.panes + far.panes;
  const waiting = here.waiting + far.waiting;
  const unread = here.unread + far.unread;
  const parts = [`${count} pane${count === 1 ? "" : "s"}`];
  if (waiting) parts.push(`${waiting} waiting`);
  if (unread) parts.push(`${unread} unread`);
  parts.push(`sort: ${state.sort === "tree" ? "projects" : "attention"}`);
  if (state.filter) parts.push(`filter: ${state.filter}`);
  row.add(parts.join(" · "));
  if (state.link !== "live") row.add("  · reconnecting to skiffd…", STYLE.error);
  // A broken projects.toml: the last good projects show, and the header says why.
  const broken = state.view?.config_error;
  if (broken) row.add(`  · ${home(broken.split("\n")[0])}`, STYLE.error);
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
  parts: {
    /** The preview's lines for a box of that size. */
    lines: (width: number, height: number) => string[];
    /** Why the preview shows nothing, if it cannot. */
    problem?: string;
    /** The list's rows, when the caller worked them out for this frame already. */
    rows?: ListRow[];
  },
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
    const rows = parts.rows ?? rowsOf(state);
    const list = listBox(state, layout.list, rows);
    const side = layout.preview
      ? previewBox(state, layout.preview, parts.lines, parts.problem, rows)
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
