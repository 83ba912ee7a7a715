/**
 * The keys of the ledger view (moving through tasks, opening a task's pane
 * or its result file) and of the result view that shows that file.
 *
 * @module
 */

import type { Key } from "../input/mod.ts";
import { type DashActions, failure, label, ledgerLines, say } from "../model/mod.ts";

/** Handles a key in the ledger view. */
export function ledgerKey(actions: DashActions, key: Key): Promise<void> | void {
  const state = actions.state;
  const items = ledgerLines(state.ledger);
  const at = items.findIndex((item) => item.row.uid === state.ledgerSelected);
  const move = (delta: number) => {
    if (items.length === 0) return;
    const next = Math.max(0, Math.min(items.length - 1, at + delta));
    state.ledgerSelected = items[next].row.uid;
  };
  const current = items[at]?.row;
  switch (key.name) {
    case "up":
      return move(-1);
    case "down":
      return move(1);
    case "pageup":
      return move(-10);
    case "pagedown":
      return move(10);
    case "escape":
      state.mode = "list";
      return;
    case "enter": {
      if (!current) return say(state, "Enter: the ledger is empty");
      if (current.kind === "plan") {
        return say(state, `Enter: ${current.uid} is a plan; it has no pane`);
      }
      const pane = state.view?.panes.find((p) => p.id === current.pane);
      if (!pane) return say(state, `Enter: the pane of ${current.uid} is gone`);
      if (pane.status === "exited") return say(state, `Enter: ${label(pane)} has exited`);
      state.selected = pane.id;
      return actions.open(pane.id);
    }
    case "char":
      break;
    default:
      return;
  }
  const char = (key as { char: string }).char;
  if (char === "j") return move(1);
  if (char === "k") return move(-1);
  if (char === "l") {
    state.mode = "list";
    return;
  }
  if (char === "q") return actions.quit();
  if (char === "o") {
    if (!current) return say(state, "o: the ledger is empty");
    return actions.readResult(current.result).then((text) => {
      state.result = { path: current.result, lines: text.split("\n"), top: 0 };
      state.mode = "result";
      state.status = null;
    }, (error) => say(state, `o: ${failure(error)}`, "error"));
  }
}

/** Handles a key in the result view (a task's result file). */
export function resultKey(actions: DashActions, key: Key): void {
  const state = actions.state;
  const result = state.result;
  if (!result) {
    state.mode = "ledger";
    return;
  }
  const page = 10;
  if (key.name === "down" || (key.name === "char" && key.char === "j")) result.top++;
  else if (key.name === "up" || (key.name === "char" && key.char === "k")) result.top--;
  else if (key.name === "pagedown" || (key.name === "char" && key.char === " ")) result.top += page;
  else if (key.name === "pageup") result.top -= page;
  else if (key.name === "char" && key.char === "q") actions.quit();
  else if (key.name === "escape" || (key.name === "char" && key.char === "o")) {
    state.mode = "ledger";
    state.result = null;
  }
  result.top = Math.max(0, result.top);
}
