/**
 * The watcher: wakes the Skiff agent when a pane it sent a task to has news,
 * only when it is safe to type, and notifies the person of what needs them.
 *
 * @module
 */

export { type Fact, type FactKind, joinLines, lineOf } from "./lines.ts";
export { type FollowedPane, followedPanes, followedUid } from "./follow.ts";
export { notifyDesktop, type NotifyOutcome } from "./notify.ts";
export { WakeQueue } from "./queue.ts";
export { runWatcher, type WatcherOptions, type WatcherStop } from "./watcher.ts";
export {
  startWatcher,
  watch,
  watcherRunning,
  type WatchOptions,
  type WatchOutcome,
} from "./run.ts";
