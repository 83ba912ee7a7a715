import { assertEquals } from "../../helpers/assert.ts";
import { type Fact, joinLines, lineOf } from "../../../lib/watch/lines.ts";
import { followedPanes, followedUid } from "../../../lib/watch/follow.ts";
import { WakeQueue } from "../../../lib/watch/queue.ts";
import { notifyDesktop } from "../../../lib/watch/notify.ts";
import type { TaskRow } from "../../../lib/ledger/mod.ts";

const base = { pane: "p3", name: "reviewer", uid: "3f2a9c1b" };

Deno.test("lineOf: the spec's forms, word for word", () => {
  assertEquals(
    lineOf({ ...base, kind: "idle" }),
    "[watch] pane reviewer 3f2a9c1b is idle. Read it, then mark it seen.",
  );
  assertEquals(
    lineOf({ ...base, kind: "pending", pending: "7c2e91ab" }),
    "[watch] pane reviewer 3f2a9c1b is idle: task 7c2e91ab is pending: skiff ledger send 7c2e91ab --enter. Read it, then mark it seen.",
  );
  assertEquals(
    lineOf({ ...base, kind: "exit" }),
    "[watch] pane reviewer 3f2a9c1b exited. Read it, then mark it seen.",
  );
  assertEquals(
    lineOf({ ...base, kind: "agent-exit" }),
    "[watch] pane reviewer 3f2a9c1b: its agent exited. Read it, then mark it seen.",
  );
});

Deno.test("joinLines: one line, never a break inside", () => {
  assertEquals(joinLines(["a\nb", "c\r\n d"]), "a b c d");
});

Deno.test("WakeQueue: a newer fact replaces the older for its pane; work drops an idle line", () => {
  const queue = new WakeQueue();
  const idle: Fact = { ...base, kind: "idle" };
  queue.put(idle);
  queue.put({ ...base, pane: "p4", name: "ops", kind: "idle" });
  const exit: Fact = { ...base, kind: "exit" };
  queue.put(exit);
  assertEquals(queue.facts.map((f) => `${f.pane}:${f.kind}`), ["p4:idle", "p3:exit"]);
  assertEquals(queue.dropIdle("p3"), false, "an exit is not dropped by work");
  assertEquals(queue.dropIdle("p4"), true);
  queue.take([idle]);
  assertEquals(queue.size, 1, "a fact replaced meanwhile stays");
  queue.take([exit]);
  assertEquals(queue.size, 0);
});

function row(id: number, fields: Partial<TaskRow>): TaskRow {
  return {
    id,
    uid: `0000000${id}`,
    kind: "task",
    parentId: null,
    parentUid: null,
    host: null,
    pane: "p3",
    paneName: "reviewer",
    generation: 100,
    branch: null,
    state: "sent",
    task: `task ${id}`,
    result: `/r/${id}.md`,
    ref: null,
    createdAt: `2026-01-01T00:00:0${id}Z`,
    updatedAt: "",
    sentAt: `2026-01-01T00:00:0${id}Z`,
    doneAt: null,
    note: null,
    worktree: null,
    landed: null,
    ...fields,
  };
}

Deno.test("followedPanes: open tasks by pane; the most recently sent is followed; plans ignored", () => {
  const rows = [
    row(1, {}),
    row(2, { state: "blocked" }),
    row(3, { state: "pending", sentAt: null }),
    row(4, { state: "done" }),
    row(5, { kind: "plan", pane: null }),
    row(6, { pane: "p9", paneName: "old" }),
    row(7, { pane: "p5", paneName: "x", generation: 50 }),
  ];
  const live = new Map([["p3", { generation: 100 }], ["p5", { generation: 60 }]]);
  const panes = followedPanes(rows, live, new Map([["p3", "rev"]]));
  const p3 = panes.get("p3")!;
  assertEquals([p3.name, p3.current?.uid, p3.pending.map((t) => t.uid)], [
    "rev",
    "00000002",
    ["00000003"],
  ]);
  assertEquals(followedUid(p3), "00000002");
  assertEquals(panes.get("p9")!.gone, true);
  assertEquals(panes.get("p5")!.interrupted.map((t) => t.uid), ["00000007"]);
  assertEquals([...panes.keys()].sort(), ["p3", "p5", "p9"]);
});

Deno.test("notifyDesktop: without the tool, says it is missing and runs nothing", async () => {
  const path = Deno.env.get("PATH");
  const empty = await Deno.makeTempDir();
  Deno.env.set("PATH", empty);
  try {
    assertEquals(await notifyDesktop("Skiff", "x"), "missing");
  } finally {
    Deno.env.set("PATH", path ?? "");
    await Deno.remove(empty);
  }
});
