/**
 * What each key does: moving, opening, the attention jump, the sort and
 * the filter, and the actions on a pane (send, new, rename, kill, mark
 * seen, its diff, landing it), the ledger view and the help. A key that would do nothing says why
 * in the status row.
 *
 * @module
 */

import { nextForAttention } from "../../overview/attention.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { Key } from "../input/mod.ts";
import {
  AGENT_KEY,
  attempt,
  type DashActions,
  type DashState,
  label,
  moveSelection,
  rowsOf,
  say,
  selectedRow,
  startPrompt,
} from "../model/mod.ts";
import { promptKey } from "./prompts.ts";
import { ledgerKey, resultKey } from "./ledger_keys.ts";
import { landKey } from "./land_key.ts";

/** The selected pane, or a line that says why there is none. */
function selectedPane(state: DashState, key: string): ListedPane | string {
  const row = selectedRow(state);
  if (row?.kind === "pane") return row.pane;
  if (row?.kind === "agent") {
    return row.pane ?? `${key}: the Skiff agent is not started (S starts it)`;
  }
  return `${key}: no pane is selected`;
}

/** Opens the pane of the selected row (or the Skiff agent). */
async function openSelected(actions: DashActions): Promise<void> {
  const state = actions.state;
  const row = selectedRow(state);
  if (row?.kind === "agent") return await actions.openAgent();
  if (row?.kind !== "pane") return say(state, "Enter: no pane is selected");
  if (row.pane.status === "exited") {
    return say(state, `${label(row.pane)} has exited: its last screen shows here; x removes it`);
  }
  await actions.open(row.pane.id);
}

function jump(actions: DashActions): ListedPane | undefined {
  const state = actions.state;
  const panes = rowsOf(state).flatMap((row) => row.kind === "pane" ? [row.pane] : []);
  const agent = rowsOf(state)[0];
  if (agent?.kind === "agent" && agent.pane) panes.unshift(agent.pane);
  const current = selectedRow(state);
  const after = current?.kind === "pane"
    ? current.pane.id
    : current?.kind === "agent"
    ? current.pane?.id ?? null
    : null;
  const next = nextForAttention(panes, after);
  if (!next) {
    say(state, "No pane needs you: none waits, none is unread");
    return undefined;
  }
  state.selected = agent?.kind === "agent" && agent.pane?.id === next.id ? AGENT_KEY : next.id;
  state.status = null;
  return next;
}

/** Handles one key. */
export async function handleKey(actions: DashActions, key: Key): Promise<void> {
  const state = actions.state;
  if (state.prompt) return await promptKey(actions, key);
  if (key.name === "ctrl-c") return actions.quit();
  if (key.name === "ctrl-l") return actions.relist();
  if (state.mode === "help") {
    state.mode = "list";
    return;
  }
  // Any key clears the last message.
  state.status = null;
  if (state.mode === "ledger") return await ledgerKey(actions, key);
  if (state.mode === "result") return resultKey(actions, key);
  switch (key.name) {
    case "up":
      return moveSelection(state, -1);
    case "down":
      return moveSelection(state, 1);
    case "pageup":
      return moveSelection(state, -10);
    case "pagedown":
      return moveSelection(state, 10);
    case "home":
      return moveSelection(state, -Infinity);
    case "end":
      return moveSelection(state, Infinity);
    case "enter":
      return await openSelected(actions);
    case "escape":
      if (state.filter) state.filter = "";
      return;
    case "char":
      return await charKey(actions, key.char);
    default:
      return;
  }
}

async function charKey(actions: DashActions, char: string): Promise<void> {
  const state = actions.state;
  switch (char) {
    case "j":
      return moveSelection(state, 1);
    case "k":
      return moveSelection(state, -1);
    case "g":
      return moveSelection(state, -Infinity);
    case "G":
      return moveSelection(state, Infinity);
    case "q":
      if (state.landing) {
        return say(state, "q: a landing is under way: wait for it to end (Ctrl+C stops it)");
      }
      return actions.quit();
    case "?":
      state.mode = "help";
      return;
    case "a":
      state.sort = state.sort === "tree" ? "attention" : "tree";
      return say(
        state,
        state.sort === "tree"
          ? "Sorted by project and session"
          : "Sorted for attention: waiting, unread, working, the rest",
      );
    case "w":
      jump(actions);
      return;
    case "W": {
      const next = jump(actions);
      if (!next) return;
      if (next.status === "exited") {
        return say(state, `${label(next)} has exited: its last screen shows here`);
      }
      return await actions.open(next.id);
    }
    case "/":
      return startPrompt(state, { kind: "filter", label: "Filter: ", text: state.filter });
    case "S":
      return await actions.openAgent();
    case "l":
      state.mode = "ledger";
      actions.readLedger();
      return;
    case "c": {
      const { projects } = actions.choices();
      return startPrompt(state, {
        kind: "new-project",
        label: projects.length > 0
          ? `New pane: project (Enter for none; ${projects.join(", ")}): `
          : "New pane: project (none set up; Enter for none): ",
        text: "",
      });
    }
  }
  const pane = selectedPane(state, char);
  const paneKeys = new Set(["s", "r", "x", "m", "d", "L"]);
  if (!paneKeys.has(char)) return say(state, `${char}: not a key here (? shows the keys)`);
  if (typeof pane === "string") return say(state, pane);
  switch (char) {
    case "s":
      if (pane.status === "exited") {
        return say(state, `s: ${label(pane)} has exited: nothing to send to`);
      }
      if (!pane.agent) {
        return say(
          state,
          `s: ${label(pane)} runs no known agent (a ${pane.state}): nothing to send to`,
        );
      }
      return startPrompt(state, {
        kind: "send",
        label: `Send to ${pane.name}: `,
        text: "",
        pane: pane.id,
      });
    case "r":
      return startPrompt(state, {
        kind: "rename",
        label: `Rename ${pane.name} to: `,
        text: "",
        pane: pane.id,
      });
    case "x":
      return startPrompt(state, {
        kind: "kill",
        label: `Kill ${label(pane)}${
          pane.status === "running" ? " and end its process" : ""
        }? y/n `,
        text: "",
        pane: pane.id,
      });
    case "d":
      if (!pane.worktree && !pane.id.includes(":")) {
        return say(state, `d: ${label(pane)} has no worktree ('skiff new --worktree' makes one)`);
      }
      return await actions.showDiff(pane);
    case "L":
      return await landKey(actions, pane);
    case "m":
      if (!pane.unread) return say(state, `m: ${label(pane)} is not unread`);
      return await attempt(actions, async () => {
        await actions.call("pane.seen", { pane: pane.id });
        return `Marked ${label(pane)} seen`;
      });
  }
}
