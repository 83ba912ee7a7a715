/** The agent icon's three looks, from the watcher's health and the panes' states. */

import { assertEquals } from "../../helpers/assert.ts";
import { agentIconState, iconMeaning, watcherWord } from "../../../lib/overview/watcher.ts";
import type { PaneInfo, PaneState } from "../../../lib/protocol/panes.ts";
import type { WatcherHealth } from "../../../lib/protocol/watch.ts";
import { sampleWatcher } from "../../helpers/pane_info.ts";

function health(fields: Partial<WatcherHealth> = {}): WatcherHealth {
  return { ...sampleWatcher(), pid: 42, ...fields };
}

function pane(id: string, session: string, state: PaneState): PaneInfo {
  return { id, session, state } as PaneInfo;
}

const agent = pane("p1", "s1", "idle");

Deno.test("icon: red and still when no watcher runs or its last line failed", () => {
  assertEquals(agentIconState(null, agent, [agent]), "alarm");
  assertEquals(agentIconState(health({ running: false }), agent, [agent]), "alarm");
  assertEquals(agentIconState(health({ ok: false }), agent, [agent]), "alarm");
  assertEquals(iconMeaning("alarm", health({ running: false })), "The watcher is not running");
  assertEquals(
    iconMeaning("alarm", health({ ok: false, last: "undelivered: x" })),
    "The watcher's last line failed: undelivered: x",
  );
});

Deno.test("icon: turns only while the agent is idle and a followed pane of another session works or waits", () => {
  const worker = pane("p2", "s2", "working");
  const waiter = pane("p3", "s3", "waiting");
  const idle = pane("p4", "s4", "idle");
  const watching = health({ watching: ["p2", "p3", "p4"] });
  assertEquals(agentIconState(watching, agent, [agent, worker]), "turning");
  assertEquals(agentIconState(watching, agent, [agent, waiter]), "turning");
  assertEquals(agentIconState(watching, agent, [agent, idle]), "still");
  // Not followed: no work to watch.
  assertEquals(agentIconState(health({ watching: [] }), agent, [agent, worker]), "still");
  // The agent itself works: still.
  assertEquals(agentIconState(watching, pane("p1", "s1", "working"), [worker]), "still");
  // No agent pane: still.
  assertEquals(agentIconState(watching, null, [worker]), "still");
});

Deno.test("watcher word: the same facts as the icon, in words", () => {
  assertEquals(watcherWord("alarm", null), "not running");
  assertEquals(watcherWord("alarm", health({ running: false })), "not running");
  assertEquals(watcherWord("alarm", health({ ok: false })), "failed");
  assertEquals(watcherWord("turning", health()), "watching");
  assertEquals(watcherWord("still", health()), "nothing to watch");
});
