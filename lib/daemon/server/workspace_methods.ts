/**
 * The daemon methods that list the workspace: its sessions, and the whole
 * workspace in one answer for the lists of the dashboard and the app.
 *
 * @module
 */

import { listedSettings } from "../../config/listed.ts";
import type { SessionInfo } from "../../protocol/sessions.ts";
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

/** The listing methods by name. */
export const WORKSPACE_METHODS: MethodTable<"session.list" | "workspace.list"> = {
  "session.list": (_params, ctx) => ({
    sessions: sessionInfos(ctx.workspace, ctx.workspace.panes),
  }),

  "workspace.list": (_params, ctx) => {
    ctx.workspace.refreshCwds();
    // The live panes are gathered once: the panes and the sessions both read them.
    const panes = ctx.workspace.panes;
    return {
      panes: panes.map((p) => ctx.workspace.listed(p)),
      sessions: sessionInfos(ctx.workspace, panes),
      watcher: ctx.watcher.status(),
      ...listedSettings(ctx.workspace.config),
      config_error: ctx.workspace.configError,
    };
  },
};
