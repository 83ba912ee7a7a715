/**
 * `skiff daemon upgrade`: skiffd replaces its own program in place, every
 * pane's process running on. The handoff file, the old program's side
 * (quiesce, freeze, save, exec), and the new program's (check, take over,
 * or give the panes back).
 *
 * @module
 */

export { checkHandoff, execBack, type StartMode, startMode } from "./adopt.ts";
export { type Adopting, takeOver } from "./take_over.ts";
export { Upgrader } from "./upgrade.ts";
