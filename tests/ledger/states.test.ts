import assert from "node:assert/strict";
import { type Entry, type Liveness, planShownState, taskShownState } from "../../lib/ledger/mod.ts";
import { open, pane, tempDir, throwsSkiff } from "./_helpers.ts";

const live = (panes: Record<string, number | null>): Liveness =>
  new Map(Object.entries(panes).map(([id, generation]) => [id, { generation }]));

/** A compact picture of a list: "uid:state" with plan tasks in brackets. */
function picture(entries: Entry[]): string[] {
  return entries.map((e) =>
    e.tasks
      ? `${e.row.task}:${e.state}[${e.tasks.map((t) => `${t.row.task}:${t.state}`)}]`
      : `${e.row.task}:${e.state}`
  );
}

Deno.test("taskShownState: interrupted, gone and unknown liveness", () => {
  const sent = { pane: "p1", generation: 100, state: "sent" as const };
  assert.equal(taskShownState(sent, live({ p1: 100 })), "sent");
  assert.equal(taskShownState(sent, live({ p1: 200 })), "interrupted");
  assert.equal(taskShownState({ ...sent, state: "blocked" }, live({ p1: 200 })), "interrupted");
  assert.equal(taskShownState({ ...sent, state: "pending" }, live({ p1: 200 })), "pending");
  assert.equal(taskShownState({ ...sent, state: "done" }, live({ p1: 200 })), "done");
  assert.equal(taskShownState(sent, live({ p2: 100 })), "gone");
  assert.equal(taskShownState({ ...sent, state: "pending" }, live({})), "gone");
  assert.equal(taskShownState({ ...sent, state: "blocked" }, live({})), "gone");
  assert.equal(taskShownState({ ...sent, state: "done" }, live({})), "done");
  assert.equal(taskShownState(sent, null), "sent", "unknown liveness shows the stored state");
  assert.equal(taskShownState({ ...sent, state: "pending" }, null), "pending");
  assert.equal(taskShownState({ ...sent, generation: null }, live({ p1: 5 })), "sent");
  assert.equal(taskShownState(sent, live({ p1: null })), "sent");
});

Deno.test("planShownState: done when every task is done, sent while one is open", () => {
  const plan = { pane: null, generation: null, state: "sent" as const };
  const t = (state: "sent" | "pending" | "blocked" | "done") => ({
    pane: "p",
    generation: 1,
    state,
  });
  assert.equal(planShownState(plan, []), "sent");
  assert.equal(planShownState({ ...plan, state: "pending" }, []), "pending");
  assert.equal(planShownState({ ...plan, state: "done" }, []), "done");
  assert.equal(planShownState(plan, [t("done"), t("done")]), "done");
  assert.equal(planShownState({ ...plan, state: "pending" }, [t("done")]), "done");
  assert.equal(planShownState(plan, [t("done"), t("pending")]), "sent");
  assert.equal(planShownState({ ...plan, state: "done" }, [t("done"), t("blocked")]), "sent");
});

Deno.test("add: defaults, plans, tasks under plans, and refusals", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "Plan" });
  assert.deepEqual([plan.kind, plan.state, plan.pane, plan.parentUid], [
    "plan",
    "sent",
    null,
    null,
  ]);
  const task = ledger.add({
    task: "Task",
    pane: pane("p1", 42, "web"),
    parent: plan.uid,
    ref: "T-1",
  });
  assert.deepEqual(
    [task.kind, task.state, task.pane, task.paneName, task.generation, task.parentUid, task.ref],
    ["task", "pending", "p1", "web", 42, plan.uid, "T-1"],
  );
  assert.equal(task.sentAt, null);
  const sent = ledger.add({ task: "Sent", pane: pane("p1"), state: "sent" });
  assert.equal(sent.sentAt, sent.createdAt);
  throwsSkiff(
    () => ledger.add({ task: "x", pane: pane("p1"), parent: task.uid }),
    "USAGE",
    /is a task, not a plan/,
  );
  throwsSkiff(
    () => ledger.add({ task: "x", parent: plan.uid }),
    "USAGE",
    /plan cannot be in another plan/,
  );
  throwsSkiff(() => ledger.add({ task: "   ", pane: pane("p1") }), "USAGE", /empty/);
  throwsSkiff(() => ledger.add({ task: "x", pane: pane("") }), "USAGE", /Pane id is empty/);
  throwsSkiff(
    () => ledger.add({ task: "x", pane: pane("p1"), state: "gone" as never }),
    "USAGE",
    /computed when shown/,
  );
  throwsSkiff(() => ledger.add({ task: "x", pane: pane("p1"), parent: "9999" }), "NOT_FOUND");
  assert.equal(ledger.list({ all: true }, null).entries.length, 2, "refused adds left no rows");
});

Deno.test("list: plans carry their tasks; plan states follow the tasks", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "P" });
  const empty = ledger.add({ task: "E" });
  const a = ledger.add({ task: "a", pane: pane("p1"), parent: plan.uid });
  const b = ledger.add({ task: "b", pane: pane("p2"), parent: plan.uid });
  ledger.add({ task: "c", pane: pane("p1") });
  const panes = live({ p1: 1000, p2: 1000 });
  assert.deepEqual(picture(ledger.list({}, panes).entries), [
    "P:sent[a:pending,b:pending]",
    "E:sent[]",
    "c:pending",
  ]);
  ledger.done(a.uid);
  assert.deepEqual(picture(ledger.list({}, panes).entries), [
    "P:sent[b:pending]",
    "E:sent[]",
    "c:pending",
  ]);
  ledger.done(b.uid);
  // The plan is done now, so the default (open rows) hides it.
  assert.deepEqual(picture(ledger.list({}, panes).entries), ["E:sent[]", "c:pending"]);
  assert.deepEqual(picture(ledger.list({ all: true }, panes).entries), [
    "P:done[a:done,b:done]",
    "E:sent[]",
    "c:pending",
  ]);
  const shown = ledger.show(plan.uid, panes);
  assert.equal(shown.state, "done");
  assert.deepEqual(shown.tasks!.map((t) => t.row.uid), [a.uid, b.uid]);
  // A plan without tasks shows its stored state; with open tasks it cannot be marked done.
  assert.equal(ledger.done(empty.uid).state, "done");
  ledger.update(b.uid, { state: "pending" });
  throwsSkiff(() => ledger.done(plan.uid), "CONFLICT", new RegExp(b.uid));
  assert.deepEqual(picture(ledger.list({}, panes).entries), ["P:sent[b:pending]", "c:pending"]);
});

Deno.test("list: filters by shown state, pane and plan", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "P" });
  ledger.add({ task: "a", pane: pane("p1", 1, "web"), parent: plan.uid, state: "sent" });
  ledger.add({ task: "b", pane: pane("p2", 1, "api"), parent: plan.uid });
  ledger.add({ task: "c", pane: pane("p1", 1, "web"), state: "blocked" });
  ledger.add({ task: "d", pane: pane("p3", 1, "db"), state: "done" });
  ledger.add({ task: "e", pane: pane("p9", 1, "old"), state: "pending" });
  const panes = live({ p1: 2, p2: 1, p3: 1 });
  const list = (f: Parameters<typeof ledger.list>[0]) => picture(ledger.list(f, panes).entries);
  assert.deepEqual(list({}), ["P:sent[a:interrupted,b:pending]", "c:interrupted", "e:gone"]);
  assert.deepEqual(list({ state: "interrupted" }), ["P:sent[a:interrupted]", "c:interrupted"]);
  assert.deepEqual(list({ state: "pending" }), ["P:sent[b:pending]"]);
  assert.deepEqual(list({ state: "gone" }), ["e:gone"]);
  assert.deepEqual(list({ state: "done" }), ["d:done"]);
  assert.deepEqual(list({ state: "sent" }), ["P:sent[]"]);
  assert.deepEqual(list({ state: ["gone", "done"] }), ["d:done", "e:gone"]);
  assert.deepEqual(list({ pane: "p1" }), ["P:sent[a:interrupted]", "c:interrupted"]);
  assert.deepEqual(list({ pane: "api" }), ["P:sent[b:pending]"], "a pane name works too");
  assert.deepEqual(list({ pane: "db" }), []);
  assert.deepEqual(list({ pane: "db", all: true }), ["d:done"]);
  assert.deepEqual(list({ plan: plan.uid }), ["P:sent[a:interrupted,b:pending]"]);
  assert.deepEqual(list({ plan: plan.uid, state: "done" }), ["P:sent[]"]);
  assert.deepEqual(list({ all: true }).length, 4);
  throwsSkiff(() => list({ plan: "4" }), "USAGE", /is a task, not a plan/);
  throwsSkiff(() => list({ state: "open" as never }), "USAGE", /not a state/);
});

Deno.test("interrupted after the pane's generation changes; a new send clears it", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const t = ledger.add({ task: "t", pane: pane("p1", 100) });
  ledger.setSent(t.uid, 100);
  assert.equal(ledger.show(t.uid, live({ p1: 100 })).state, "sent");
  assert.equal(ledger.show(t.uid, live({ p1: 555 })).state, "interrupted");
  const resent = ledger.setSent(t.uid, 555);
  assert.equal(resent.generation, 555);
  assert.equal(ledger.show(t.uid, live({ p1: 555 })).state, "sent");
  const blocked = ledger.setBlocked(t.uid, 555);
  assert.deepEqual([blocked.state, blocked.generation], ["blocked", 555]);
  assert.notEqual(blocked.sentAt, null);
  assert.equal(ledger.show(t.uid, live({ p1: 777 })).state, "interrupted");
  const plan = ledger.add({ task: "P" });
  throwsSkiff(() => ledger.setSent(plan.uid, 1), "USAGE", /is a plan/);
});

Deno.test("gone after the pane is removed; done tasks never show gone", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const open1 = ledger.add({ task: "open", pane: pane("p1") });
  const finished = ledger.add({ task: "finished", pane: pane("p1"), state: "done" });
  const before = live({ p1: 1000 });
  const after = live({});
  assert.equal(ledger.show(open1.uid, before).state, "pending");
  assert.equal(ledger.show(open1.uid, after).state, "gone");
  assert.equal(ledger.show(finished.uid, after).state, "done");
  // A new pane brings it back, with that pane's generation.
  const moved = ledger.update(open1.uid, { pane: pane("p2", 2000, "new") });
  assert.deepEqual([moved.pane, moved.paneName, moved.generation], ["p2", "new", 2000]);
  assert.equal(ledger.show(open1.uid, live({ p2: 2000 })).state, "pending");
});

Deno.test("unknown liveness: stored states only, and the list says so", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  ledger.add({ task: "a", pane: pane("p1", 1), state: "sent" });
  ledger.add({ task: "b", pane: pane("p2", 1) });
  const unknown = ledger.list({}, null);
  assert.equal(unknown.livenessKnown, false);
  assert.deepEqual(picture(unknown.entries), ["a:sent", "b:pending"]);
  const known = ledger.list({}, live({}));
  assert.equal(known.livenessKnown, true);
  assert.deepEqual(picture(known.entries), ["a:gone", "b:gone"]);
});

Deno.test("update: fields, timestamps and generation rules", async () => {
  await using dir = await tempDir();
  let clock = new Date("2024-03-05T10:00:00Z");
  using ledger = open(dir.path, { now: () => clock });
  const t = ledger.add({ task: "t", pane: pane("p1", 100), ref: "old" });
  clock = new Date("2024-03-05T11:00:00Z");
  let row = ledger.update(t.uid, { state: "sent", generation: 150 });
  assert.deepEqual([row.state, row.generation, row.sentAt], ["sent", 150, clock.toISOString()]);
  assert.equal(row.updatedAt, clock.toISOString());
  assert.equal(row.createdAt, "2024-03-05T10:00:00.000Z");
  row = ledger.update(t.uid, { state: "sent" });
  assert.equal(row.generation, null, "sent without a generation stores unknown");
  row = ledger.update(t.uid, { pane: pane("p4", 400, "four"), state: "sent" });
  assert.deepEqual([row.pane, row.generation], ["p4", 400]);
  row = ledger.update(t.uid, { pane: pane("p5", 500), generation: 501 });
  assert.equal(row.generation, 501, "an explicit generation wins");
  row = ledger.update(t.uid, { state: "blocked" });
  assert.equal(row.generation, 501, "blocked through update keeps the generation");
  row = ledger.update(t.uid, { task: "new text", ref: null });
  assert.deepEqual([row.task, row.ref], ["new text", null]);
  assert.equal(row.result, t.result, "the result path does not follow the text");
  clock = new Date("2024-03-05T12:00:00Z");
  row = ledger.done(t.uid);
  assert.deepEqual([row.state, row.doneAt], ["done", clock.toISOString()]);
  row = ledger.update(t.uid, { state: "pending" });
  assert.equal(row.doneAt, null);
  throwsSkiff(() => ledger.update(t.uid, {}), "USAGE", /Nothing to change/);
  throwsSkiff(() => ledger.update(t.uid, { state: "interrupted" as never }), "USAGE");
  throwsSkiff(() => ledger.update(t.uid, { task: "" }), "USAGE");
  throwsSkiff(() => ledger.update(t.uid, { result: " " }), "USAGE");
  const plan = ledger.add({ task: "P" });
  throwsSkiff(() => ledger.update(plan.uid, { pane: pane("p1") }), "USAGE", /plan has no pane/);
});

Deno.test("remove: a plan with tasks needs withTasks", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "P" });
  const a = ledger.add({ task: "a", pane: pane("p1"), parent: plan.uid });
  const b = ledger.add({ task: "b", pane: pane("p1"), parent: plan.uid });
  throwsSkiff(() => ledger.remove(plan.uid), "CONFLICT", /2 task/);
  assert.equal(ledger.list({ all: true }, null).entries[0].tasks!.length, 2);
  ledger.remove(a.uid);
  const removed = ledger.remove(plan.uid, { withTasks: true });
  assert.deepEqual(removed.map((r) => r.uid), [plan.uid, b.uid]);
  assert.deepEqual(ledger.list({ all: true }, null).entries, []);
});
