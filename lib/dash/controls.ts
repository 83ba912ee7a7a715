/**
 * What each key does: moving, opening, the attention jump, the sort and
 * the filter, and the actions on a pane (send, new, rename, kill, mark
 * seen), the ledger view and the help. A key that would do nothing says why
 * in the status row.
 *
 * @module
 */

import { nextForAttention } from "../overview/attention.ts";
import { SkiffError } from "../errors.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import type { Key } from "./keys.ts";
import { AGENT_KEY } from "./rows.ts";
import {
  type DashState,
  ledgerLines,
  moveSelection,
  type Prompt,
  rowsOf,
  selectedRow,
} from "./state.ts";

/** What the keys ask of the dashboard. */
export interface DashActions {
  /** The state. */
  readonly state: DashState;
  /** Asks skiffd. */
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** Opens a pane full screen until the detach key. */
  open(pane: string): Promise<void>;
  /** Opens the Skiff agent (starting it when needed) full screen. */
  openAgent(): Promise<void>;
  /** Makes a pane: project, agent and name as typed (empty: none). */
  newPane(answers: Record<string, string>): Promise<PaneInfo>;
  /** Reads the ledger again. */
  readLedger(): void;
  /** Reads a result file for the result view. */
  readResult(path: string): Promise<string>;
  /** Lists the panes again; resolves once the list is read. */
  relist(): Promise<void>;
  /** Ends the dashboard. */
  quit(): void;
  /** The project names and agent ids, for the new-pane prompts. */
  choices(): { projects: string[]; agents: string[] };
}

function say(state: DashState, text: string, tone: "info" | "error" = "info"): void {
  state.status = { text, tone };
}

function label(pane: PaneInfo): string {
  return `${pane.name} (${pane.id})`;
}

/** The selected pane, or a line that says why there is none. */
function selectedPane(state: DashState, key: string): PaneInfo | string {
  const row = selectedRow(state);
  if (row?.kind === "pane") return row.pane;
  if (row?.kind === "agent") {
    return row.pane ?? `${key}: the Skiff agent is not started (S starts it)`;
  }
  return `${key}: no pane is selected`;
}

function failure(error: unknown): string {
  return error instanceof SkiffError || error instanceof Error ? error.message : String(error);
}

/** Runs `work`, then says what it did, or why it failed. */
async function attempt(
  actions: DashActions,
  work: () => Promise<string>,
): Promise<void> {
  try {
    say(actions.state, await work());
  } catch (error) {
    say(actions.state, failure(error), "error");
  }
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

function jump(actions: DashActions): PaneInfo | undefined {
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

function startPrompt(state: DashState, prompt: Prompt): void {
  state.prompt = prompt;
  state.status = null;
}

/** Handles a key while a prompt is open. */
async function promptKey(actions: DashActions, key: Key): Promise<void> {
  const state = actions.state;
  const prompt = state.prompt!;
  if (prompt.kind === "kill") {
    state.prompt = null;
    const pane = state.view?.panes.find((p) => p.id === prompt.pane);
    if (!pane) return say(state, "The pane is gone already");
    if (key.name === "char" && (key.char === "y" || key.char === "Y")) {
      await attempt(actions, async () => {
        await actions.call("pane.kill", { pane: pane.id });
        return `Killed ${label(pane)}`;
      });
    } else {
      say(state, `Kept ${label(pane)}`);
    }
    return;
  }
  if (key.name === "escape" || key.name === "ctrl-c") {
    if (prompt.kind === "filter") state.filter = "";
    state.prompt = null;
    return;
  }
  if (key.name === "backspace") {
    prompt.text = [...prompt.text].slice(0, -1).join("");
  } else if (key.name === "ctrl-u") {
    prompt.text = "";
  } else if (key.name === "ctrl-w") {
    prompt.text = prompt.text.replace(/\S*\s*$/, "");
  } else if (key.name === "char") {
    prompt.text += key.char;
  } else if (key.name === "paste") {
    // One line: a pasted newline becomes a space.
    prompt.text += key.text.replace(/\r\n|\r|\n/g, " ");
  } else if (key.name === "enter") {
    state.prompt = null;
    await submit(actions, prompt);
    return;
  }
  if (prompt.kind === "filter") state.filter = prompt.text;
}

async function submit(actions: DashActions, prompt: Prompt): Promise<void> {
  const state = actions.state;
  const text = prompt.text.trim();
  switch (prompt.kind) {
    case "filter":
      state.filter = text;
      return;
    case "send": {
      if (text === "") return say(state, "Nothing sent: the line was empty");
      const pane = state.view?.panes.find((p) => p.id === prompt.pane);
      say(state, `Sending to ${pane ? label(pane) : prompt.pane}…`);
      actions.relist();
      await attempt(actions, async () => {
        const result = await actions.call("pane.send", {
          pane: prompt.pane!,
          text,
          enter: true,
        });
        return `Sent to ${result.name} (${result.pane}); ${
          result.turn_started ? "a turn started" : "Enter pressed"
        }`;
      });
      return;
    }
    case "rename": {
      if (text === "") return say(state, "Not renamed: the name was empty");
      await attempt(actions, async () => {
        const pane = await actions.call("pane.rename", { pane: prompt.pane!, name: text });
        return `Renamed to ${pane.name}`;
      });
      return;
    }
    case "new-project": {
      const { agents } = actions.choices();
      return startPrompt(state, {
        kind: "new-agent",
        label: `New pane: agent (Enter for a shell; ${agents.join(", ")}): `,
        text: "",
        answers: { project: text },
      });
    }
    case "new-agent":
      return startPrompt(state, {
        kind: "new-name",
        label: "New pane: name (Enter for one made up): ",
        text: "",
        answers: { ...prompt.answers, agent: text },
      });
    case "new-name":
      await attempt(actions, async () => {
        const pane = await actions.newPane({ ...prompt.answers, name: text });
        await actions.relist();
        state.selected = pane.id;
        return `Made ${label(pane)}`;
      });
      return;
    default:
      return;
  }
}

function ledgerKey(actions: DashActions, key: Key): Promise<void> | void {
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

function resultKey(actions: DashActions, key: Key): void {
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
  const paneKeys = new Set(["s", "r", "x", "m"]);
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
    case "m":
      if (!pane.unread) return say(state, `m: ${label(pane)} is not unread`);
      return await attempt(actions, async () => {
        await actions.call("pane.seen", { pane: pane.id });
        return `Marked ${label(pane)} seen`;
      });
  }
}
