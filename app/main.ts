/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The page: the sidebar on the left, and on the right a pane's terminal,
 * a pane's worktree diff, the ledger or Settings, chosen by the address's
 * hash (`#pane/p3`, `#diff/p3`, `#ledger`, `#settings`), so a reload keeps
 * what was open.
 *
 * @module
 */

import type { ListedPane } from "../lib/protocol/workspace.ts";
import type { WorkspaceView } from "../lib/overview/view.ts";
import { paneTasks, type TaskSummary } from "../lib/overview/tasks.ts";
import { Connection } from "./connection.ts";
import { DiffScreen } from "./diff_view.ts";
import { h } from "./dom.ts";
import { LedgerScreen } from "./ledger_view.ts";
import { SettingsScreen } from "./settings_view.ts";
import { renderAgentRow, renderTree, type SidebarActions } from "./sidebar.ts";
import { Store } from "./store.ts";
import { TerminalView } from "./terminal_view.ts";

const connection = new Connection();
const store = new Store(connection);
const main = document.getElementById("main")!;
const agentSlot = document.getElementById("agent-slot")!;
const tree = document.getElementById("tree")!;
const linkState = document.getElementById("link-state")!;
const configProblem = document.getElementById("config-problem")!;

/** What the right side shows. */
type Screen =
  | { kind: "welcome" }
  | {
    kind: "pane";
    id: string;
    view: TerminalView;
    header: HTMLElement;
    tasks: HTMLElement;
    note?: string;
  }
  | { kind: "ledger"; screen: LedgerScreen }
  | { kind: "diff"; screen: DiffScreen }
  | { kind: "settings"; screen: SettingsScreen };

let screen: Screen = { kind: "welcome" };

function selectedPane(): string | null {
  return screen.kind === "pane" ? screen.id : screen.kind === "diff" ? screen.screen.pane : null;
}

/** Tells the server whether this page shows the ledger, so it hears of the ledger's changes. */
function followLedger(ledger: boolean): void {
  connection.call("follow", { ledger }).catch(() => {
    // The connection went; the page says again when it is back (onLive).
  });
}

function closeScreen(): void {
  if (screen.kind === "pane") {
    screen.view.dispose();
    followLedger(false);
  }
  if (screen.kind === "ledger") followLedger(false);
  if (screen.kind === "diff") screen.screen.dispose();
  screen = { kind: "welcome" };
}

/** The header above a pane's terminal: its name, agent, state, and Mark seen. */
function paneHeader(id: string): HTMLElement {
  return h("header", { class: "pane-head", id: "pane-head", "data-pane": id });
}

/** A pane of the workspace by its id, or by `HOST:ID` for a pane of another host. */
function findPane(view: WorkspaceView | undefined, id: string): ListedPane | undefined {
  if (!view) return undefined;
  return view.panes.find((p) => p.id === id) ??
    view.hosts?.flatMap((host) => host.panes).find((p) => p.id === id);
}

function fillPaneHeader(header: HTMLElement, pane: ListedPane | undefined, note?: string): void {
  if (!pane) {
    header.replaceChildren(
      h("h1", {}, header.dataset.pane ?? ""),
      note ? h("span", { class: "note" }, note) : "",
    );
    return;
  }
  header.replaceChildren(
    h("h1", {}, pane.name),
    h(
      "span",
      { class: "pane-meta" },
      [pane.agent ?? "no agent", pane.project ?? "", pane.id].filter(Boolean).join(" · "),
    ),
    h("span", { class: `state state-${pane.state}`, id: "pane-state" }, pane.state),
    pane.unread
      ? h("span", { class: "unread-reasons" }, `unread: ${pane.unread_reasons.join(", ")}`)
      : "",
    // A pane of another host (HOST:ID) is diffed there: `skiff diff HOST:ID`, or its own app.
    pane.worktree && !pane.id.includes(":") ? diffLink(pane) : "",
    h(
      "button",
      {
        type: "button",
        id: "mark-seen",
        disabled: !pane.unread,
        onclick: () => connection.call("seen", { pane: pane.id }).catch(() => {}),
      },
      "Mark seen",
    ),
    note ? h("span", { class: "note", role: "status" }, note) : "",
  );
}

/** The header's way to a worktree pane's Diff view, with the listing's count of its changes. */
function diffLink(pane: ListedPane): HTMLElement {
  const diff = pane.diff;
  const counts = diff && diff.files > 0 ? ` +${diff.added} −${diff.removed}` : "";
  const landed = pane.worktree?.landed && !counts ? " · landed" : "";
  return h(
    "a",
    {
      href: `#diff/${pane.id}`,
      id: "open-diff",
      class: "button-link",
      title: `The diff of ${pane.worktree!.name} (${pane.worktree!.branch}), and Land`,
    },
    `Diff${counts}${landed}`,
  );
}

/** How many of a pane's tasks show above its terminal; the Ledger has the rest. */
const PANE_TASKS_SHOWN = 3;

/** Shows a pane's tasks above its terminal (open ones first), or nothing when it has none. */
function fillPaneTasks(list: HTMLElement, tasks: TaskSummary[]): void {
  list.hidden = tasks.length === 0;
  const items = tasks.slice(0, PANE_TASKS_SHOWN).map((task) =>
    h(
      "li",
      { "data-uid": task.uid, title: task.result },
      h("code", {}, task.uid),
      h("span", { class: `task-state task-${task.state}` }, task.state),
      h("span", { class: "task-first" }, task.first),
    )
  );
  if (tasks.length > PANE_TASKS_SHOWN) {
    items.push(
      h(
        "li",
        {},
        h("a", { href: "#ledger" }, `${tasks.length - PANE_TASKS_SHOWN} more in the Ledger`),
      ),
    );
  }
  list.replaceChildren(...items);
}

/** Reads the ledger for the open pane's tasks (the same summary the dashboard shows). */
async function loadPaneTasks(): Promise<void> {
  const current = screen;
  if (current.kind !== "pane") return;
  let tasks: TaskSummary[] = [];
  try {
    // A pane of another host is HOST:ID here; its tasks are stored with the host.
    const colon = current.id.indexOf(":");
    tasks = paneTasks(
      (await connection.call("ledger", {})).rows,
      colon === -1 ? current.id : current.id.slice(colon + 1),
      colon === -1 ? null : current.id.slice(0, colon),
    );
  } catch {
    // No ledger, or it cannot be read now: the Ledger screen says why.
  }
  if (screen === current) fillPaneTasks(current.tasks, tasks);
}

function openPane(id: string, focus = true): void {
  closeScreen();
  const header = paneHeader(id);
  const tasks = h("ul", {
    class: "pane-tasks",
    id: "pane-tasks",
    hidden: true,
    "aria-label": "Tasks of this pane",
  });
  const host = h("div", { class: "term-host", id: "terminal" });
  main.replaceChildren(
    h("section", { class: "screen pane", "aria-labelledby": "pane-head" }, header, tasks, host),
  );
  const view = new TerminalView(host, id, {
    attached: (pane) => {
      if (screen.kind === "pane" && screen.view === view) screen.id = pane.id;
      if (location.hash !== `#pane/${pane.id}`) history.replaceState(null, "", `#pane/${pane.id}`);
      render();
    },
    ended: (why) => {
      const current = screen;
      if (current.kind !== "pane" || current.view !== view) return;
      current.note = `[${why}]`;
      fillPaneHeader(header, findPane(store.view, current.id), current.note);
    },
    leave: () => {
      (document.querySelector<HTMLElement>(`[data-pane="${id}"]`) ??
        document.getElementById("agent-row"))?.focus();
    },
  });
  screen = { kind: "pane", id, view, header, tasks };
  followLedger(true);
  loadPaneTasks();
  fillPaneHeader(header, findPane(store.view, id));
  (globalThis as unknown as { skiffTerminal: TerminalView }).skiffTerminal = view;
  if (focus) view.focus();
  render();
}

function showLedger(): void {
  closeScreen();
  const ledger = new LedgerScreen(connection);
  screen = { kind: "ledger", screen: ledger };
  main.replaceChildren(ledger.element);
  followLedger(true);
  ledger.load();
  render();
}

function showDiff(pane: string): void {
  closeScreen();
  const diff = new DiffScreen(connection, pane, { landed: () => store.refresh() });
  screen = { kind: "diff", screen: diff };
  main.replaceChildren(diff.element);
  diff.load();
  render();
}

function showSettings(): void {
  closeScreen();
  const settings = new SettingsScreen(connection, () => store.refresh());
  screen = { kind: "settings", screen: settings };
  main.replaceChildren(settings.element);
  settings.load();
  render();
}

async function openAgent(): Promise<void> {
  try {
    const opened = await connection.call("skipper.open", {});
    location.hash = `#pane/${opened.pane.id}`;
    store.refresh();
  } catch (error) {
    closeScreen();
    main.replaceChildren(
      h(
        "section",
        { class: "screen welcome" },
        h("h1", {}, "Skiff agent"),
        h("p", { class: "problem", role: "alert", id: "agent-problem" }, (error as Error).message),
        h("p", {}, h("a", { href: "#settings" }, "Settings › Skiff agent")),
      ),
    );
    if (location.hash.startsWith("#pane/")) history.replaceState(null, "", "#");
  }
}

const actions: SidebarActions = {
  openPane: (id) => location.hash = `#pane/${id}`,
  openAgent: () => void openAgent(),
};

function route(): void {
  const hash = location.hash;
  const pane = hash.match(/^#pane\/(.+)$/)?.[1];
  const diff = hash.match(/^#diff\/(.+)$/)?.[1];
  if (pane) {
    if (screen.kind !== "pane" || screen.id !== pane) openPane(decodeURIComponent(pane));
  } else if (diff) {
    const id = decodeURIComponent(diff);
    if (screen.kind !== "diff" || screen.screen.pane !== id) showDiff(id);
  } else if (hash === "#ledger") {
    if (screen.kind !== "ledger") showLedger();
  } else if (hash === "#settings") {
    if (screen.kind !== "settings") showSettings();
  } else if (screen.kind !== "welcome") {
    closeScreen();
    main.replaceChildren(
      h(
        "section",
        { class: "welcome" },
        h("h1", {}, "Skiff"),
        h("p", {}, "Select a pane to open its terminal."),
      ),
    );
  }
  render();
}

/** Draws the sidebar again, keeping the keyboard where it was. */
function render(): void {
  const view = store.view;
  document.getElementById("nav-ledger")!.toggleAttribute("aria-current", screen.kind === "ledger");
  document.getElementById("nav-settings")!.toggleAttribute(
    "aria-current",
    screen.kind === "settings",
  );
  if (!view) return;
  configProblem.textContent = view.config_error ?? "";
  configProblem.hidden = view.config_error === null;
  const focused = document.activeElement as HTMLElement | null;
  const key = focused?.id === "agent-row"
    ? "#agent-row"
    : focused?.dataset.pane
    ? `[data-pane="${focused.dataset.pane}"]`
    : null;
  agentSlot.replaceChildren(renderAgentRow(view, selectedPane(), actions));
  tree.replaceChildren(renderTree(view, selectedPane(), actions));
  if (key && tree.contains(focused) === false && agentSlot.contains(focused) === false) {
    document.querySelector<HTMLElement>(key)?.focus();
  }
  const current = screen;
  if (current.kind === "pane") {
    fillPaneHeader(current.header, findPane(view, current.id), current.note);
  }
  document.title = view.panes.some((p) => p.unread) ? "● Skiff" : "Skiff";
}

// Up and Down move between the sidebar's rows.
document.getElementById("sidebar")!.addEventListener("keydown", (event) => {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const rows = [...document.querySelectorAll<HTMLElement>("#sidebar [data-nav], #sidebar .tool")];
  const at = rows.indexOf(document.activeElement as HTMLElement);
  if (at === -1) return;
  event.preventDefault();
  rows[Math.max(0, Math.min(rows.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))].focus();
});

store.subscribe(render);

/**
 * Lists again, then reads the settings screen's file (when it shows): so a mended
 * projects.toml never shows its controls under the old file's problem line.
 */
function relistThenSettings(): void {
  store.refresh().then(() => {
    if (screen.kind === "settings") screen.screen.load();
  });
}

connection.onLive = () => {
  relistThenSettings();
  if (screen.kind === "ledger") {
    followLedger(true);
    screen.screen.load();
  }
  if (screen.kind === "pane") {
    followLedger(true);
    loadPaneTasks();
  }
};
connection.onChanged = (what) => {
  // Another host's panes changed: the sidebar lists them again, and a remote task's shown
  // state (unreachable, interrupted, gone) follows its host.
  if (what === "hosts") {
    store.refresh();
    if (screen.kind === "ledger") screen.screen.load();
    if (screen.kind === "pane") loadPaneTasks();
  }
  // The sidebar shows the projects and the Skiff agent's name and state from it.
  if (what === "settings") relistThenSettings();
  if (what === "ledger" && screen.kind === "ledger") screen.screen.load();
  if (what === "ledger" && screen.kind === "pane") loadPaneTasks();
};
connection.onState = (state, why) => {
  linkState.textContent = state === "live"
    ? ""
    : state === "connecting"
    ? "connecting…"
    : `reconnecting${why ? ` (${why})` : ""}…`;
  document.body.dataset.link = state;
};
connection.onEvent = (event) => {
  store.apply(event);
  if (event.event === "resized" && screen.kind === "pane" && event.pane === screen.id) {
    screen.view.follow(event.cols, event.rows);
  }
  if (
    event.event === "turn-end" && screen.kind === "diff" &&
    event.pane === screen.screen.pane
  ) {
    // The agent's turn ended: what it changed shows.
    screen.screen.load();
  }
  if (["gone", "pane-restored", "exit", "turn-end"].includes(event.event)) {
    if (screen.kind === "ledger") screen.screen.load();
    if (screen.kind === "pane") loadPaneTasks();
  }
};
addEventListener("hashchange", route);
connection.open();
route();
