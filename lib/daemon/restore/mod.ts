/**
 * Bringing the workspace back after a restart or a crash: each saved pane
 * gets a new shell under its old history (or stays exited), and an agent
 * that ran gets its own conversation resumed, from the ids its hooks told.
 *
 * @module
 */

export { Conversations } from "./conversations.ts";
export { restorePanes } from "./restore.ts";
export { resumeSteps } from "./restore_resume.ts";
