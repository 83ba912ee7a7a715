/** The attention order: waiting, then unread, then working, then the rest. */

import { assertEquals } from "../../helpers/assert.ts";
import {
  attentionRank,
  byAttention,
  needsAttention,
  nextForAttention,
} from "../../../lib/overview/attention.ts";
import type { PaneState } from "../../../lib/protocol/panes.ts";

function pane(id: string, state: PaneState, unread = false) {
  return { id, state, unread };
}

Deno.test("attention: ranks waiting, unread, working, the rest", () => {
  assertEquals(attentionRank(pane("a", "waiting")), 0);
  assertEquals(attentionRank(pane("a", "idle", true)), 1);
  assertEquals(attentionRank(pane("a", "exited", true)), 1);
  assertEquals(attentionRank(pane("a", "working")), 2);
  assertEquals(attentionRank(pane("a", "idle")), 3);
  assertEquals(attentionRank(pane("a", "shell")), 3);
  assertEquals(needsAttention(pane("a", "working")), false);
  assertEquals(needsAttention(pane("a", "shell", true)), true);
});

Deno.test("attention: the sort is stable within a rank", () => {
  const panes = [
    pane("idle1", "idle"),
    pane("work1", "working"),
    pane("unread1", "idle", true),
    pane("wait1", "waiting"),
    pane("work2", "working"),
    pane("wait2", "waiting", true),
  ];
  assertEquals(byAttention(panes).map((p) => p.id), [
    "wait1",
    "wait2",
    "unread1",
    "work1",
    "work2",
    "idle1",
  ]);
});

Deno.test("attention: the jump goes to the next waiting pane, going round, then unread", () => {
  const panes = [
    pane("a", "waiting"),
    pane("b", "idle", true),
    pane("c", "idle"),
    pane("d", "waiting"),
  ];
  assertEquals(nextForAttention(panes, "a")?.id, "d");
  assertEquals(nextForAttention(panes, "d")?.id, "a");
  assertEquals(nextForAttention(panes, null)?.id, "a");
  const unreadOnly = [pane("a", "idle", true), pane("b", "idle"), pane("c", "exited", true)];
  assertEquals(nextForAttention(unreadOnly, "a")?.id, "c");
  assertEquals(nextForAttention(unreadOnly, "c")?.id, "a");
  // Only the selected pane needs a person: it stays.
  assertEquals(nextForAttention([pane("a", "waiting"), pane("b", "idle")], "a")?.id, "a");
  assertEquals(nextForAttention([pane("a", "idle"), pane("b", "working")], "a"), undefined);
});
