import { assertEquals, assertNotEquals } from "../../helpers/assert.ts";
import {
  type Entry,
  listedKey,
  type Liveness,
  paneKey,
  type PaneLiveness,
  planShownState,
  taskShownState,
  unreachableKey,
} from "../../../lib/ledger/mod.ts";
import { open, pane, tempDir, throwsSkiff } from "../../helpers/ledger.ts";

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
  assertEquals(taskShownState(sent, live({ p1: 100 })), "sent");
  assertEquals(taskShownState(sent, live({ p1: 200 })), "interrupted");
  assertEquals(taskShownState({ ...sent, state: "blocked" }, live({ p1: 200 })), "interrupted");
  assertEquals(taskShownState({ ...sent, state: "pending" }, live({ p1: 200 })), "pending");
  assertEquals(taskShownState({ ...sent, state: "done" }, live({ p1: 200 })), "done");
  assertEquals(taskShownState(sent, live({ p2: 100 })), "gone");
  assertEquals(taskShownState({ ...sent, state: "pending" }, live({})), "gone");
  assertEquals(taskShownState({ ...sent, state: "blocked" }, live({})), "gone");
  assertEquals(taskShownState({ ...sent, state: "done" }, live({})), "done");
  assertEquals(taskShownState(sent, null), "sent", "unknown liveness shows the stored state");
  assertEquals(taskShownState({ ...sent, state: "pending" }, null), "pending");
  assertEquals(taskShownState({ ...sent, generation: null }, live({ p1: 5 })), "sent");
  assertEquals(taskShownState(sent, live({ p1: null })), "sent");
});

Deno.test("planShownState: done when every task is done, sent while one is open, open with none", () => {
  const plan = { pane: null, generation: null, state: "sent" as const };
  const t = (state: "sent" | "pending" | "blocked" | "done") => ({
    pane: "p",
    generation: 1,
    state,
  });
  assertEquals(planShownState(plan, []), "open", "nothing was sent for it");
  assertEquals(planShownState({ ...plan, state: "pending" }, []), "pending");
  assertEquals(planShownState({ ...plan, state: "done" }, []), "done");
  assertEquals(planShownState(plan, [t("done"), t("done")]), "done");
  assertEquals(planShownState({ ...plan, state: "pending" }, [t("done")]), "done");
  assertEquals(planShownState(plan, [t("done"), t("pending")]), "sent");
  assertEquals(planShownState({ ...plan, state: "done" }, [t("done"), t("blocked")]), "sent");
});

Deno.test("add: defaults, plans, tasks under plans, and refusals", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "Plan" });
  assertEquals([plan.kind, plan.state, plan.pane, plan.parentUid], [
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
  assertEquals(
    [task.kind, task.state, task.pane, task.paneName, task.generation, task.parentUid, task.ref],
    ["task", "pending", "p1", "web", 42, plan.uid, "T-1"],
  );
  assertEquals(task.sentAt, null);
  const sent = ledger.add({ task: "Sent", pane: pane("p1"), state: "sent" });
  assertEquals(sent.sentAt, sent.createdAt);
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
  assertEquals(ledger.list({ all: true }, null).entries.length, 2, "refused adds left no rows");
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
  assertEquals(picture(ledger.list({}, panes).entries), [
    "P:sent[a:pending,b:pending]",
    "E:open[]",
    "c:pending",
  ]);
  ledger.done(a.uid);
  assertEquals(picture(ledger.list({}, panes).entries), [
    "P:sent[b:pending]",
    "E:open[]",
    "c:pending",
  ]);
  ledger.done(b.uid);
  // The plan is done now, so the default (open rows) hides it.
  assertEquals(picture(ledger.list({}, panes).entries), ["E:open[]", "c:pending"]);
  assertEquals(picture(ledger.list({ all: true }, panes).entries), [
    "P:done[a:done,b:done]",
    "E:open[]",
    "c:pending",
  ]);
  const shown = ledger.show(plan.uid, panes);
  assertEquals(shown.state, "done");
  assertEquals(shown.tasks!.map((t) => t.row.uid), [a.uid, b.uid]);
  // A plan without tasks shows its stored state; with open tasks it cannot be marked done.
  assertEquals(ledger.done(empty.uid).state, "done");
  ledger.update(b.uid, { state: "pending" });
  throwsSkiff(() => ledger.done(plan.uid), "CONFLICT", new RegExp(b.uid));
  assertEquals(picture(ledger.list({}, panes).entries), ["P:sent[b:pending]", "c:pending"]);
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
  assertEquals(list({}), ["P:sent[a:interrupted,b:pending]", "c:interrupted", "e:gone"]);
  assertEquals(list({ state: "interrupted" }), ["P:sent[a:interrupted]", "c:interrupted"]);
  assertEquals(list({ state: "pending" }), ["P:sent[b:pending]"]);
  assertEquals(list({ state: "gone" }), ["e:gone"]);
  assertEquals(list({ state: "done" }), ["d:done"]);
  assertEquals(list({ state: "sent" }), ["P:sent[]"]);
  assertEquals(list({ state: ["gone", "done"] }), ["d:done", "e:gone"]);
  assertEquals(list({ pane: "p1" }), ["P:sent[a:interrupted]", "c:interrupted"]);
  assertEquals(list({ pane: "api" }), ["P:sent[b:pending]"], "a pane name works too");
  assertEquals(list({ pane: "db" }), []);
  assertEquals(list({ pane: "db", all: true }), ["d:done"]);
  assertEquals(list({ plan: plan.uid }), ["P:sent[a:interrupted,b:pending]"]);
  assertEquals(list({ plan: plan.uid, state: "done" }), ["P:sent[]"]);
  assertEquals(list({ all: true }).length, 4);
  throwsSkiff(() => list({ plan: "4" }), "USAGE", /is a task, not a plan/);
  assertEquals(list({ state: "open" }), [], "no plan is without tasks");
  throwsSkiff(() => list({ state: "opened" as never }), "USAGE", /not a state/);
});

Deno.test("interrupted after the pane's generation changes; a new send clears it", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const t = ledger.add({ task: "t", pane: pane("p1", 100) });
  ledger.setSent(t.uid, 100);
  assertEquals(ledger.show(t.uid, live({ p1: 100 })).state, "sent");
  assertEquals(ledger.show(t.uid, live({ p1: 555 })).state, "interrupted");
  const resent = ledger.setSent(t.uid, 555);
  assertEquals(resent.generation, 555);
  assertEquals(ledger.show(t.uid, live({ p1: 555 })).state, "sent");
  const blocked = ledger.setBlocked(t.uid, 555);
  assertEquals([blocked.state, blocked.generation], ["blocked", 555]);
  assertNotEquals(blocked.sentAt, null);
  assertEquals(ledger.show(t.uid, live({ p1: 777 })).state, "interrupted");
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
  assertEquals(ledger.show(open1.uid, before).state, "pending");
  assertEquals(ledger.show(open1.uid, after).state, "gone");
  assertEquals(ledger.show(finished.uid, after).state, "done");
  // A new pane brings it back, with that pane's generation.
  const moved = ledger.update(open1.uid, { pane: pane("p2", 2000, "new") });
  assertEquals([moved.pane, moved.paneName, moved.generation], ["p2", "new", 2000]);
  assertEquals(ledger.show(open1.uid, live({ p2: 2000 })).state, "pending");
});

Deno.test("unknown liveness: stored states only, and the list says so", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  ledger.add({ task: "a", pane: pane("p1", 1), state: "sent" });
  ledger.add({ task: "b", pane: pane("p2", 1) });
  const unknown = ledger.list({}, null);
  assertEquals(unknown.livenessKnown, false);
  assertEquals(picture(unknown.entries), ["a:sent", "b:pending"]);
  const known = ledger.list({}, live({}));
  assertEquals(known.livenessKnown, true);
  assertEquals(picture(known.entries), ["a:gone", "b:gone"]);
});

Deno.test("update: fields, timestamps and generation rules", async () => {
  await using dir = await tempDir();
  let clock = new Date("2024-03-05T10:00:00Z");
  using ledger = open(dir.path, { now: () => clock });
  const t = ledger.add({ task: "t", pane: pane("p1", 100), ref: "old" });
  clock = new Date("2024-03-05T11:00:00Z");
  let row = ledger.update(t.uid, { state: "sent", generation: 150 });
  assertEquals([row.state, row.generation, row.sentAt], ["sent", 150, clock.toISOString()]);
  assertEquals(row.updatedAt, clock.toISOString());
  assertEquals(row.createdAt, "2024-03-05T10:00:00.000Z");
  row = ledger.update(t.uid, { state: "sent" });
  assertEquals(row.generation, null, "sent without a generation stores unknown");
  row = ledger.update(t.uid, { pane: pane("p4", 400, "four"), state: "sent" });
  assertEquals([row.pane, row.generation], ["p4", 400]);
  row = ledger.update(t.uid, { pane: pane("p5", 500), generation: 501 });
  assertEquals(row.generation, 501, "an explicit generation wins");
  row = ledger.update(t.uid, { state: "blocked" });
  assertEquals(row.generation, 501, "blocked through update keeps the generation");
  row = ledger.update(t.uid, { task: "new text", ref: null });
  assertEquals([row.task, row.ref], ["new text", null]);
  assertEquals(row.result, t.result, "the result path does not follow the text");
  clock = new Date("2024-03-05T12:00:00Z");
  row = ledger.done(t.uid);
  assertEquals([row.state, row.doneAt], ["done", clock.toISOString()]);
  row = ledger.update(t.uid, { state: "pending" });
  assertEquals(row.doneAt, null);
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
  assertEquals(ledger.list({ all: true }, null).entries[0].tasks!.length, 2);
  ledger.remove(a.uid);
  const removed = ledger.remove(plan.uid, { withTasks: true });
  assertEquals(removed.map((r) => r.uid), [plan.uid, b.uid]);
  assertEquals(ledger.list({ all: true }, null).entries, []);
});

Deno.test("a task on another host: its pane by HOST:ID, and unreachable (never gone) when its host is", () => {
  const far = { host: "gpu1", pane: "p3", generation: 5, state: "sent" as const };
  const local = { pane: "p3", generation: 5, state: "sent" as const };
  const listed: [string, PaneLiveness] = [listedKey("gpu1"), { generation: null }];
  const live = new Map([listed, ["gpu1:p3", { generation: 5 }]]);
  assertEquals(taskShownState(far, live), "sent");
  assertEquals(taskShownState(local, live), "gone", "a local p3 is another pane");
  assertEquals(
    taskShownState(far, new Map([listed, ["gpu1:p3", { generation: 6 }]])),
    "interrupted",
  );
  assertEquals(taskShownState(far, new Map([listed, ["p3", { generation: 5 }]])), "gone");
  assertEquals(
    taskShownState(far, new Map([["p3", { generation: 5 }]])),
    "sent",
    "a host not asked is not known: the stored state",
  );
  const down = new Map<string, PaneLiveness>([
    [unreachableKey("gpu1"), { generation: null }],
    ["p3", { generation: 5 }],
  ]);
  assertEquals(taskShownState(far, down), "unreachable");
  assertEquals(taskShownState({ ...far, state: "pending" }, down), "unreachable");
  assertEquals(taskShownState({ ...far, state: "done" }, down), "done");
  assertEquals(taskShownState(local, down), "sent", "a local task is not on the host");
  assertEquals(taskShownState(far, null), "sent", "unknown liveness shows the stored state");
  assertEquals(paneKey("gpu1", "p3"), "gpu1:p3");
  assertEquals(paneKey(null, "p3"), "p3");
});
