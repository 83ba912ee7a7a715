/**
 * The saved workspace: sessions, panes and marks as records (found by id,
 * name or `project/name`, with names kept unique), the rules of names, the
 * file saved after every change, and the numbered stream of events that
 * tells every change to subscribers.
 *
 * @module
 */

export { EventBus, type SavedEvents } from "./events.ts";
export { checkName, NAME_PATTERN } from "./names.ts";
export { WorkspaceSaver } from "./saver.ts";
export {
  diskFull,
  loadWorkspace,
  parseWorkspace,
  type SavedPane,
  type SavedSession,
  type WorkspaceData,
} from "./workspace.ts";
export { WorkspaceRecords } from "./workspace_records.ts";
