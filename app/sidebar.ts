/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The sidebar: the Skiff agent's row with its icon above the projects, then
 * each project with its sessions and panes (name, agent, state, an unread
 * dot), and the panes of no project in a group of their own.
 *
 * @module
 */

import type { WorkspaceView } from "../lib/app/api.ts";
import { agentIconState, iconMeaning } from "../lib/overview/watcher.ts";
import { skiffAgentPane } from "../lib/overview/skiff_agent.ts";
import type { ListedPane } from "../lib/protocol/workspace.ts";
import { h, svg } from "./dom.ts";

/** What the sidebar asks of the page. */
export interface SidebarActions {
  /** Open a pane. */
  openPane(id: string): void;
  /** Open the Skiff agent (as `skiff skipper` does). */
  openAgent(): void;
}

/** The Skiff agent's pane, if its session exists. */
export function agentPane(view: WorkspaceView): ListedPane | null {
  return skiffAgentPane(view.panes);
}

/** The ship's wheel that shows the watcher. */
function wheel(): SVGElement {
  const spokes = [0, 45, 90, 135].map((angle) =>
    svg("line", {
      x1: 12,
      y1: 1.5,
      x2: 12,
      y2: 22.5,
      transform: `rotate(${angle} 12 12)`,
    })
  );
  return svg(
    "svg",
    { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    ...spokes,
    svg("circle", { cx: 12, cy: 12, r: 7.5, class: "rim" }),
    svg("circle", { cx: 12, cy: 12, r: 2.6, class: "hub" }),
  );
}

function stateBadge(state: string): HTMLElement {
  return h("span", { class: `state state-${state}` }, state);
}

function paneRow(pane: ListedPane, selected: string | null, actions: SidebarActions): HTMLElement {
  const reasons = pane.unread_reasons.join(", ");
  return h(
    "li",
    {},
    h(
      "button",
      {
        type: "button",
        class: "row pane-row",
        "data-nav": "",
        "data-pane": pane.id,
        "aria-current": pane.id === selected ? "true" : undefined,
        title: `${pane.name} (${pane.id}) in ${pane.cwd}`,
        onclick: () => actions.openPane(pane.id),
      },
      h(
        "span",
        {
          class: pane.unread ? "dot unread" : "dot",
          title: pane.unread ? `Unread: ${reasons}` : "",
        },
        pane.unread ? h("span", { class: "sr-only" }, "unread") : null,
      ),
      h("span", { class: "row-name" }, pane.name),
      h("span", { class: "row-agent" }, pane.agent ?? ""),
      stateBadge(pane.state),
    ),
  );
}

function sessionBlock(
  name: string,
  panes: ListedPane[],
  selected: string | null,
  actions: SidebarActions,
): HTMLElement {
  return h(
    "li",
    { class: "session" },
    h("span", { class: "session-name" }, name),
    h("ul", { class: "panes" }, panes.map((p) => paneRow(p, selected, actions))),
  );
}

function group(
  title: string,
  panes: ListedPane[],
  selected: string | null,
  actions: SidebarActions,
  note?: string,
): HTMLElement {
  const sessions = new Map<string, ListedPane[]>();
  for (const pane of panes) {
    const list = sessions.get(pane.session_name) ?? [];
    list.push(pane);
    sessions.set(pane.session_name, list);
  }
  return h(
    "section",
    { class: "group", "aria-label": title },
    h("h2", { class: "group-name" }, title),
    note ? h("p", { class: "group-note" }, note) : null,
    h(
      "ul",
      { class: "sessions" },
      [...sessions].map(([name, list]) => sessionBlock(name, list, selected, actions)),
    ),
  );
}

/** The Skiff agent's row. */
export function renderAgentRow(
  view: WorkspaceView,
  selected: string | null,
  actions: SidebarActions,
): HTMLElement {
  const pane = agentPane(view);
  const state = agentIconState(view.watcher, pane, view.panes);
  const meaning = iconMeaning(state, view.watcher);
  const status = pane ? pane.state : view.skipper.enabled ? "not started" : "off";
  return h(
    "button",
    {
      type: "button",
      class: "row agent-row",
      id: "agent-row",
      "data-nav": "",
      "aria-current": pane && pane.id === selected ? "true" : undefined,
      "aria-describedby": "agent-icon-meaning",
      onclick: () => actions.openAgent(),
    },
    h(
      "span",
      { class: "agent-icon", id: "agent-icon", "data-state": state, title: meaning },
      wheel(),
    ),
    h("span", { class: "row-name" }, view.skipper.name),
    pane?.unread
      ? h("span", { class: "dot unread" }, h("span", { class: "sr-only" }, "unread"))
      : null,
    h("span", { class: `state state-${status.replace(" ", "-")}` }, status),
    h("span", { class: "sr-only", id: "agent-icon-meaning" }, meaning),
  );
}

/** The projects with their sessions and panes. */
export function renderTree(
  view: WorkspaceView,
  selected: string | null,
  actions: SidebarActions,
): HTMLElement {
  const agent = agentPane(view);
  const panes = view.panes.filter((p) => !agent || p.session !== agent.session);
  const sections: HTMLElement[] = [];
  for (const project of view.projects) {
    const mine = panes.filter((p) => p.project === project.name);
    sections.push(
      group(project.name, mine, selected, actions, mine.length === 0 ? "No panes" : undefined),
    );
  }
  const known = new Set(view.projects.map((p) => p.name));
  const gone = [...new Set(panes.map((p) => p.project).filter((p) => p && !known.has(p)))];
  for (const name of gone) {
    sections.push(group(name!, panes.filter((p) => p.project === name), selected, actions));
  }
  const loose = panes.filter((p) => p.project === null);
  if (loose.length > 0) sections.push(group("No project", loose, selected, actions));
  // Each other host is a group of its own, after this machine's panes.
  for (const host of view.hosts ?? []) {
    const note = host.state === "down"
      ? `Unreachable${host.why ? `: ${host.why}` : ""}`
      : host.state === "unknown"
      ? "Linking…"
      : host.panes.length === 0
      ? "No panes"
      : undefined;
    sections.push(group(`${host.host} (host)`, host.panes, selected, actions, note));
  }
  if (sections.length === 0) {
    sections.push(h("p", { class: "group-note" }, "No panes yet. Start one with 'skiff new'."));
  }
  return h("div", {}, sections);
}
