/**
 * The daemon methods that list the workspace: its sessions, and the whole
 * workspace in one answer for the lists of the dashboard and the app.
 *
 * @module
 */

import { listedSettings } from "../config/listed.ts";
import type { SessionInfo } from "../protocol/sessions.ts";
import type { LiveWorkspace } from "./live_workspace.ts";
import type { MethodTable } from "./method_types.ts";

/** Every session with the ids of its panes, in one pass over the panes. */
function sessionInfos(workspace: LiveWorkspace): SessionInfo[] {
  const panes = new Map<string, string[]>();
  for (const pane of workspace.panes) {
    const ids = panes.get(pane.saved.session);
    if (ids) ids.push(pane.id);
    else panes.set(pane.saved.session, [pane.id]);
  }
  return workspace.sessions.map((s) => ({ ...s, panes: panes.get(s.id) ?? [] }));
}

/** The listing methods by name. */
export const WORKSPACE_METHODS: MethodTable<"session.list" | "workspace.list"> = {
  "session.list": (_params, ctx) => ({ sessions: sessionInfos(ctx.workspace) }),

  "workspace.list": (_params, ctx) => {
    ctx.workspace.refreshCwds();
    return {
      panes: ctx.workspace.panes.map((p) => ctx.workspace.listed(p)),
      sessions: sessionInfos(ctx.workspace),
      watcher: ctx.watcher.status(),
      ...listedSettings(ctx.workspace.config),
      config_error: ctx.workspace.configError,
    };
  },
};
