/**
 * The daemon methods that list the workspace: its sessions, and the whole
 * workspace in one answer for the lists of the dashboard and the app.
 *
 * @module
 */

import type { SessionInfo } from "../protocol/sessions.ts";
import type { WorkspaceListing } from "../protocol/workspace.ts";
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

/** The projects and the Skiff agent's settings as a list shows them, from the config skiffd runs with. */
function configFacts(
  workspace: LiveWorkspace,
): Pick<WorkspaceListing, "projects" | "skipper" | "config_error"> {
  const config = workspace.config;
  return {
    projects: config.projects.map((p) => ({ name: p.name, root: p.root })),
    skipper: {
      enabled: config.skiffAgent.enabled,
      name: config.skiffAgent.name,
      agent: config.skiffAgent.agent,
    },
    config_error: workspace.configError,
  };
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
      ...configFacts(ctx.workspace),
    };
  },
};
