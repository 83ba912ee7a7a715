/**
 * Folding skiffd's events into a live list of panes. Most events carry what
 * they change (a state, an unread reason, a new name, a size), so the list
 * changes in place; those that make or end panes or sessions, or say that
 * events were missed, ask the caller to list again. The app's sidebar and
 * the dashboard both keep their lists this way.
 *
 * @module
 */

import type { Event } from "../protocol/events.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { WatcherHealth } from "../protocol/watch.ts";

/** The part of a listing that events change. */
export interface LivePanes {
  /** Every pane. */
  panes: ListedPane[];
  /** The watcher's health. */
  watcher: WatcherHealth;
}

/**
 * What an event did to the list: `changed` (shown facts changed in place),
 * `relist` (list again to know), or `quiet` (nothing shown changed).
 */
export type FoldOutcome = "changed" | "relist" | "quiet";

/** Events that only make the caller list again. */
const RELIST = new Set<string>([
  "pane-created",
  "pane-restored",
  "session-marked",
  "session-ended",
  "resync",
  "daemon-reloaded",
]);

/** Takes `event` into `view`, changing it in place; says what the caller should do. */
export function foldEvent(view: LivePanes, event: Event): FoldOutcome {
  if (event.event === "watcher") {
    const { event: _e, time: _t, run: _r, seq: _s, ...health } = event;
    view.watcher = health;
    return "changed";
  }
  if (RELIST.has(event.event)) return "relist";
  if (!("pane" in event)) return "quiet";
  const at = view.panes.findIndex((p) => p.id === event.pane);
  const pane = view.panes[at];
  if (event.event === "gone") {
    if (at === -1) return "quiet";
    view.panes.splice(at, 1);
    return "changed";
  }
  if (!pane) {
    // News of a pane this list does not know yet: it was made after the listing.
    return event.event === "typed" || event.event === "title" ? "quiet" : "relist";
  }
  switch (event.event) {
    case "worktree":
      pane.worktree = event.worktree;
      pane.diff = event.diff;
      return "changed";
    case "state":
      pane.state = event.state;
      pane.agent = event.agent;
      pane.state_since = event.time;
      return "changed";
    case "turn-end":
    case "idle-no-turn":
    case "waiting":
    case "bell":
      pane.unread = event.unread_reasons.length > 0;
      pane.unread_reasons = event.unread_reasons;
      return "changed";
    case "exit":
      if (event.unread_reasons) {
        pane.unread = event.unread_reasons.length > 0;
        pane.unread_reasons = event.unread_reasons;
      }
      if (event.what === "process") {
        pane.status = "exited";
        pane.state = "exited";
        pane.state_since = event.time;
        pane.pid = null;
        pane.exit_code = event.exit_code ?? null;
        pane.exit_signal = event.signal ?? null;
      }
      return "changed";
    case "seen":
      pane.unread = false;
      pane.unread_reasons = [];
      return "changed";
    case "pane-renamed":
      pane.name = event.name;
      return "changed";
    case "resized":
      pane.cols = event.cols;
      pane.rows = event.rows;
      return "changed";
    case "title":
      pane.title = event.title;
      return "quiet";
    default:
      return "quiet";
  }
}
