/**
 * A made-up {@linkcode PaneInfo} for unit tests of clients, with every
 * field set: one place to add a field when the protocol grows one.
 *
 * @module
 */

import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { WatcherHealth } from "../../lib/protocol/watch.ts";

/** A running shell pane `id`, with `fields` over the defaults. */
export function samplePane(id: string, fields: Partial<PaneInfo> = {}): PaneInfo {
  return {
    id,
    name: `n${id}`,
    project: null,
    session: "s1",
    session_name: "s",
    pid: 1,
    generation: 1,
    command: ["bash"],
    foreground: null,
    cwd: "/",
    cols: 80,
    rows: 24,
    title: "",
    status: "running",
    agent: null,
    state: "shell",
    unread: false,
    unread_reasons: [],
    person_inputs: 0,
    session_marks: {},
    exit_code: null,
    exit_signal: null,
    attached: 0,
    created: "2026-01-01T00:00:00.000Z",
    state_since: "2026-01-01T00:00:00.000Z",
    used: null,
    worktree: null,
    diff: null,
    ...fields,
  };
}

/** A running watcher that watches nothing and has said nothing yet. */
export function sampleWatcher(): WatcherHealth {
  return {
    running: true,
    pid: 1,
    started: null,
    ok: true,
    last: null,
    last_at: null,
    watching: [],
    waiting_lines: 0,
  };
}
