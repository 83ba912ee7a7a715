/**
 * The dashboard's list as rows: the Skiff agent's row first, then each
 * project with its counts, its sessions and their panes (the panes of no
 * project last, in a group of their own), or, sorted for attention, every
 * pane in the attention order. A filter keeps the panes whose name,
 * project, session, agent or state holds its text.
 *
 * @module
 */

import { byAttention } from "../../overview/attention.ts";
import { isSkiffAgentPane, skiffAgentPane } from "../../overview/skiff_agent.ts";
import { countPanes, projectGroups, sessionGroups } from "../../protocol/workspace_order.ts";
import type { HostView, WorkspaceView } from "../../overview/view.ts";
import type { ListedPane, PaneCounts } from "../../protocol/workspace.ts";

/** How the list is ordered: projects and sessions, or attention first. */
export type Sort = "tree" | "attention";

/** The key of the Skiff agent's row (panes are keyed by their id). */
export const AGENT_KEY = "agent";

/** One row of the list. */
export type ListRow =
  | { kind: "agent"; key: typeof AGENT_KEY; pane: ListedPane | null }
  | { kind: "project"; key: null; name: string; counts: PaneCounts; known: boolean }
  | {
    kind: "host";
    key: null;
    name: string;
    counts: PaneCounts;
    state: HostView["state"];
    why: string | null;
    when: string | null;
  }
  | { kind: "session"; key: null; name: string }
  | {
    kind: "pane";
    key: string;
    pane: ListedPane;
    host: string | null;
    branch: string | null;
    /** 0 in the attention sort, 1 under a project, 2 under a session. */
    depth: number;
  }
  | { kind: "note"; key: null; text: string };

/** Whether `pane` matches the filter text `filter` (lower case; empty matches all). */
export function matches(pane: ListedPane, filter: string): boolean {
  if (filter === "") return true;
  const facts = [pane.name, pane.project ?? "", pane.session_name, pane.agent ?? "", pane.state];
  return facts.some((fact) => fact.toLowerCase().includes(filter));
}

function paneRow(pane: ListedPane, depth: number): ListRow {
  // A pane of another host has its host (and is keyed HOST:ID); a local one has none.
  const extra = pane as ListedPane & { host?: string | null };
  return {
    kind: "pane",
    key: pane.id,
    pane,
    host: extra.host ?? null,
    branch: pane.worktree?.branch ?? null,
    depth,
  };
}

function sessionRows(panes: readonly ListedPane[]): ListRow[] {
  const rows: ListRow[] = [];
  for (const list of sessionGroups(panes)) {
    // A session of one pane by its own name says nothing its pane does not.
    const alone = list.length === 1 && list[0].session_name === list[0].name;
    if (!alone) rows.push({ kind: "session", key: null, name: list[0].session_name });
    rows.push(...list.map((pane) => paneRow(pane, alone ? 1 : 2)));
  }
  return rows;
}

/** The list's rows for `view`, sorted by `sort` and kept by `filter`. */
export function listRows(
  view: WorkspaceView,
  options: { sort: Sort; filter: string },
): ListRow[] {
  const filter = options.filter.trim().toLowerCase();
  const rows: ListRow[] = [{ kind: "agent", key: AGENT_KEY, pane: skiffAgentPane(view.panes) }];
  const panes = view.panes.filter((p) => !isSkiffAgentPane(p));
  const hosts = view.hosts ?? [];
  // A group shows while the filter keeps one of its panes or matches its own name.
  const hidden = (name: string, kept: readonly ListedPane[]) =>
    filter !== "" && kept.length === 0 && !name.toLowerCase().includes(filter);
  if (options.sort === "attention") {
    const shown = [...panes, ...hosts.flatMap((h) => h.panes)].filter((p) => matches(p, filter));
    rows.push(...byAttention(shown).map((pane) => paneRow(pane, 0)));
  } else {
    // A listing cut to a first screen counts each project's panes, which it does not all hold.
    const cut = new Map(view.cut?.projects.map((p) => [p.project, p.counts]));
    for (const group of projectGroups(panes, view.projects.map((p) => p.name))) {
      const mine = group.panes.filter((p) => matches(p, filter));
      if (group.name === null ? mine.length === 0 : hidden(group.name, mine)) continue;
      rows.push({
        kind: "project",
        key: null,
        name: group.name ?? "No project",
        counts: cut.get(group.name) ?? countPanes(group.panes),
        known: group.known,
      });
      rows.push(...sessionRows(mine));
    }
    // Each other host is a group of its own, after this machine's panes.
    for (const host of hosts) {
      const mine = host.panes.filter((p) => matches(p, filter));
      if (hidden(host.host, mine)) continue;
      rows.push({
        kind: "host",
        key: null,
        name: host.host,
        counts: countPanes(host.panes),
        state: host.state,
        why: host.why,
        when: host.when ?? null,
      });
      rows.push(...sessionRows(mine));
    }
  }
  if (rows.length === 1) {
    rows.push({
      kind: "note",
      key: null,
      text: filter !== ""
        ? `No pane matches '${options.filter}'`
        : "No panes yet: c makes one, or 'skiff new'",
    });
  }
  return rows;
}
