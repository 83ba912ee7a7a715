/**
 * The live workspace: the saved records with the panes that run, kept in
 * step. It starts, adopts, restores and kills panes, and tells once when a
 * session ended.
 *
 * @module
 */

export { LiveWorkspace } from "./live_workspace.ts";
export { type WorkspaceMemory } from "./workspace_options.ts";
