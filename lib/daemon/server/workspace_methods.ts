/**
 * The daemon methods that list the workspace: its sessions, and the whole
 * workspace in one answer for the lists of the dashboard and the app.
 *
 * @module
 */

import { listedSettings } from "../../config/listed.ts";
import type { SessionInfo } from "../../protocol/sessions.ts";
import { firstPanes, listingCut } from "../../protocol/workspace_order.ts";
import { maybeInt, type Params } from "./params.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { MethodTable } from "./method_types.ts";
import type { Pane } from "../panes/mod.ts";

/** Every session of `workspace` with the ids of its `panes`, in one pass over them. */
function sessionInfos(workspace: LiveWorkspace, panes: readonly Pane[]): SessionInfo[] {
  const bySession = new Map<string, string[]>();
  for (const pane of panes) {
    const ids = bySession.get(pane.saved.session);
    if (ids) ids.push(pane.id);
    else bySession.set(pane.saved.session, [pane.id]);
  }
  return workspace.sessions.map((s) => ({ ...s, panes: bySession.get(s.id) ?? [] }));
}

/** The most rows a first screen may ask for. */
const MAX_FIRST_ROWS = 10_000;

/** The listing methods by name. */
export const WORKSPACE_METHODS: MethodTable<"session.list" | "workspace.list"> = {
  "session.list": (_params, ctx) => ({
    sessions: sessionInfos(ctx.workspace, ctx.workspace.panes),
  }),

  "workspace.list": (params, ctx) => {
    const first = maybeInt(params as Params, "first", 1, MAX_FIRST_ROWS);
    ctx.workspace.refreshCwds();
    // The live panes are gathered once: the panes and the sessions both read them.
    const all = ctx.workspace.panes;
    const listed = all.map((p) => ctx.workspace.listed(p));
    const settings = listedSettings(ctx.workspace.config);
    const common = {
      watcher: ctx.watcher.status(),
      ...settings,
      config_error: ctx.workspace.configError,
    };
    if (first === undefined || listed.length <= first) {
      return { panes: listed, sessions: sessionInfos(ctx.workspace, all), ...common };
    }
    // A first screen: the panes its rows show, the whole counted. Most of a thousand panes'
    // answer (and its wait behind busy panes' output) is left for the full listing after it.
    const projects = settings.projects.map((p) => p.name);
    // The panes the watcher follows too: whether one works shows on the Skiff agent's row.
    const ids = new Set(firstPanes(listed, projects, first).map((p) => p.id));
    for (const id of common.watcher.watching) ids.add(id);
    const shown = listed.filter((p) => ids.has(p.id));
    const kept = new Set(shown.map((p) => p.session));
    return {
      panes: shown,
      sessions: sessionInfos(ctx.workspace, all).filter((s) => kept.has(s.id)),
      ...common,
      cut: listingCut(listed, projects),
    };
  },
};
