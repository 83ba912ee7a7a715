/** Folding skiffd's events into a live list: in place where the event says enough, else relist. */

import { assertEquals } from "../../helpers/assert.ts";
import { foldEvent, type LivePanes } from "../../../lib/overview/fold.ts";
import type { Event } from "../../../lib/protocol/events.ts";
import type { PaneInfo } from "../../../lib/protocol/panes.ts";
import type { WatcherHealth } from "../../../lib/protocol/watch.ts";
import { sampleWatcher } from "../../helpers/pane_info.ts";

const HEALTH: WatcherHealth = sampleWatcher();

function live(): LivePanes {
  const pane = {
    id: "p1",
    name: "one",
    state: "idle",
    agent: "fake",
    status: "running",
    unread: false,
    unread_reasons: [],
    state_since: "2026-01-01T00:00:00.000Z",
    pid: 5,
    cols: 80,
    rows: 24,
  } as unknown as PaneInfo;
  return { panes: [pane], watcher: { ...HEALTH } };
}

const base = { time: "2026-01-02T00:00:00.000Z", run: "r", seq: 1, pane: "p1", name: "one" };

function event(fields: Record<string, unknown>): Event {
  return { ...base, generation: 1, ...fields } as unknown as Event;
}

Deno.test("fold: a state event changes the state, the agent and when it changed", () => {
  const view = live();
  assertEquals(
    foldEvent(view, event({ event: "state", state: "working", agent: "fake" })),
    "changed",
  );
  assertEquals(view.panes[0].state, "working");
  assertEquals(view.panes[0].state_since, base.time);
});

Deno.test("fold: unread reasons come and go with turn ends, bells and seen", () => {
  const view = live();
  const reasons = ["turn-end", "bell"];
  assertEquals(
    foldEvent(view, event({ event: "bell", agent: null, unread_reasons: reasons })),
    "changed",
  );
  assertEquals([view.panes[0].unread, view.panes[0].unread_reasons], [true, reasons]);
  assertEquals(foldEvent(view, event({ event: "seen", unread_reasons: reasons })), "changed");
  assertEquals([view.panes[0].unread, view.panes[0].unread_reasons], [false, []]);
});

Deno.test("fold: a process exit, a rename, a resize and a gone pane change the list in place", () => {
  const view = live();
  foldEvent(
    view,
    event({ event: "exit", what: "process", exit_code: 3, agent: null, unread_reasons: ["exit"] }),
  );
  assertEquals(
    [view.panes[0].status, view.panes[0].state, view.panes[0].exit_code, view.panes[0].pid],
    ["exited", "exited", 3, null],
  );
  assertEquals(foldEvent(view, event({ event: "pane-renamed", name: "two" })), "changed");
  assertEquals(view.panes[0].name, "two");
  assertEquals(foldEvent(view, event({ event: "resized", cols: 100, rows: 30 })), "changed");
  assertEquals([view.panes[0].cols, view.panes[0].rows], [100, 30]);
  assertEquals(foldEvent(view, event({ event: "gone" })), "changed");
  assertEquals(view.panes.length, 0);
  assertEquals(foldEvent(view, event({ event: "gone" })), "quiet");
});

Deno.test("fold: new panes, sessions and missed events list again; typing is quiet", () => {
  const view = live();
  assertEquals(foldEvent(view, event({ event: "pane-created" })), "relist");
  assertEquals(foldEvent(view, { ...base, event: "resync", reason: "new-run" } as Event), "relist");
  assertEquals(foldEvent(view, event({ event: "state", pane: "p9", state: "idle" })), "relist");
  assertEquals(foldEvent(view, event({ event: "typed" })), "quiet");
  assertEquals(foldEvent(view, event({ event: "turn-start", agent: "fake" })), "quiet");
});

Deno.test("fold: the watcher's health replaces the old one", () => {
  const view = live();
  const { pane: _p, name: _n, ...rest } = base;
  assertEquals(
    foldEvent(view, { ...rest, event: "watcher", ...HEALTH, ok: false } as Event),
    "changed",
  );
  assertEquals(view.watcher.ok, false);
});

Deno.test("fold: a worktree event changes the pane's worktree and its diff in place", () => {
  const view = live();
  const worktree = {
    id: "w1",
    name: "fix",
    branch: "skiff/fix",
    path: "/tmp/fix",
    ahead: 2,
    behind: 0,
    merged: false,
    landed: null,
  };
  const diff = { files: 1, added: 3, removed: 1 };
  assertEquals(foldEvent(view, event({ event: "worktree", worktree, diff })), "changed");
  const pane = view.panes[0] as unknown as { worktree: unknown; diff: unknown };
  assertEquals([pane.worktree, pane.diff], [worktree, diff]);
  // A pane this list does not know yet: list again.
  assertEquals(foldEvent(view, event({ event: "worktree", pane: "p9", worktree, diff })), "relist");
});
