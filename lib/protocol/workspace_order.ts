/**
 * The order in which a list of the workspace shows its panes, sorted by
 * project: the projects of `projects.toml` in their order, then any other
 * project as its first pane comes, then the panes of no project; in each,
 * the panes of a session together, where the session's first pane is. The
 * Skiff agent's panes are a row of their own, above the rest.
 *
 * skiffd cuts a first listing with it (`workspace.list` with `first`), and
 * the dashboard draws its rows with it, so the two agree on which panes a
 * first screen shows.
 *
 * @module
 */

import { SKIFF_AGENT_MARK } from "./sessions.ts";
import type { ListedPane, ListingCut, PaneCounts } from "./workspace.ts";

/** The counts of `panes`. */
export function countPanes(panes: readonly Pick<ListedPane, "state" | "unread">[]): PaneCounts {
  const counts = { panes: panes.length, working: 0, waiting: 0, unread: 0 };
  for (const pane of panes) {
    if (pane.state === "working") counts.working++;
    else if (pane.state === "waiting") counts.waiting++;
    if (pane.unread) counts.unread++;
  }
  return counts;
}

/** Whether `pane` belongs to the Skiff agent's session. */
export function isSkiffAgentPane(pane: Pick<ListedPane, "session_marks">): boolean {
  return Object.hasOwn(pane.session_marks, SKIFF_AGENT_MARK);
}

/** What the order reads of a pane. */
export type OrderedPane = Pick<ListedPane, "project" | "session">;

/** One project's group of a list: its name (null for no project) and its panes. */
export interface ProjectGroup<P extends OrderedPane> {
  /** The project's name; null for the panes of no project. */
  name: string | null;
  /** Whether `projects.toml` names it. */
  known: boolean;
  /** Its panes, in the order they came. */
  panes: P[];
}

/**
 * `panes` by project, in the list's order: each project of `projects` (its
 * group even when it has no pane), then the other projects as their first
 * pane comes, then the panes of no project when there are any.
 */
export function projectGroups<P extends OrderedPane>(
  panes: readonly P[],
  projects: readonly string[],
): ProjectGroup<P>[] {
  const groups = new Map<string, ProjectGroup<P>>();
  for (const name of projects) groups.set(name, { name, known: true, panes: [] });
  const loose: ProjectGroup<P> = { name: null, known: false, panes: [] };
  for (const pane of panes) {
    if (pane.project === null) {
      loose.panes.push(pane);
      continue;
    }
    let group = groups.get(pane.project);
    if (!group) groups.set(pane.project, group = { name: pane.project, known: false, panes: [] });
    group.panes.push(pane);
  }
  const ordered = [...groups.values()];
  if (loose.panes.length > 0) ordered.push(loose);
  return ordered;
}

/** `panes` by session, each session where its first pane is. */
export function sessionGroups<P extends Pick<ListedPane, "session">>(panes: readonly P[]): P[][] {
  const sessions = new Map<string, P[]>();
  for (const pane of panes) {
    const list = sessions.get(pane.session);
    if (list) list.push(pane);
    else sessions.set(pane.session, [pane]);
  }
  return [...sessions.values()];
}

/**
 * The panes a list sorted by project shows in its first rows: the Skiff
 * agent's, and the first `first` of the others in the list's order (each
 * takes a row at least, so no row of the first `first` is missing).
 */
export function firstPanes<P extends OrderedPane & Pick<ListedPane, "session_marks">>(
  panes: readonly P[],
  projects: readonly string[],
  first: number,
): P[] {
  const kept = panes.filter(isSkiffAgentPane);
  let left = first;
  for (const group of projectGroups(panes.filter((p) => !isSkiffAgentPane(p)), projects)) {
    for (const session of sessionGroups(group.panes)) {
      if (left <= 0) return kept;
      const taken = session.slice(0, left);
      kept.push(...taken);
      left -= taken.length;
    }
  }
  return kept;
}

/**
 * What a listing cut to its first screen says of every pane of `panes`: all of them counted (the
 * Skiff agent's too, as a list's header counts them), and each project's, which the list counts
 * without the Skiff agent's (its row is its own).
 */
export function listingCut(
  panes: readonly Pick<ListedPane, "project" | "session" | "session_marks" | "state" | "unread">[],
  projects: readonly string[],
): ListingCut {
  const others = panes.filter((p) => !isSkiffAgentPane(p));
  return {
    counts: countPanes(panes),
    projects: projectGroups(others, projects).map((group) => ({
      project: group.name,
      counts: countPanes(group.panes),
    })),
  };
}
