import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { listToJson, toJson } from "../../../lib/ledger/mod.ts";
import { open, pane, tempDir } from "../../helpers/ledger.ts";

const KEYS = [
  "id",
  "uid",
  "kind",
  "state",
  "stored_state",
  "host",
  "pane",
  "pane_name",
  "generation",
  "branch",
  "task",
  "result",
  "ref",
  "parent",
  "created_at",
  "updated_at",
  "sent_at",
  "done_at",
  "note",
  "worktree",
  "landed",
];

Deno.test("toJson: one stable shape, keys in order; plans carry tasks", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const plan = ledger.add({ task: "Plan", ref: "https://example.test/1" });
  const task = ledger.add({ task: "Task", pane: pane("p3", 1700, "reviewer"), parent: plan.uid });
  ledger.setSent(task.uid, 1700);
  const entry = ledger.show(plan.uid, new Map([["p3", { generation: 1800 }]]));
  const json = toJson(entry.row, entry);
  assertEquals(Object.keys(json), [...KEYS, "tasks"]);
  assertEquals(
    { ...json, tasks: undefined, created_at: 0, updated_at: 0 },
    {
      id: 1,
      uid: plan.uid,
      kind: "plan",
      state: "sent",
      stored_state: "sent",
      host: null,
      pane: null,
      pane_name: null,
      generation: null,
      branch: null,
      task: "Plan",
      result: plan.result,
      ref: "https://example.test/1",
      parent: null,
      created_at: 0,
      updated_at: 0,
      sent_at: null,
      done_at: null,
      note: null,
      worktree: null,
      landed: null,
      tasks: undefined,
    },
  );
  const child = json.tasks![0];
  assertEquals(Object.keys(child), KEYS, "a task has no tasks key");
  assertEquals(child.kind, "task");
  assertEquals(child.state, "interrupted");
  assertEquals(child.stored_state, "sent");
  assertEquals(child.parent, plan.uid);
  assertEquals([child.host, child.pane], [null, "p3"]);
  assertEquals(child.pane_name, "reviewer");
  assertEquals(child.generation, 1700);
  assert(child.result.startsWith("/"));
  assertMatch(child.sent_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  // A plan shown with no tasks still gets an empty list.
  assertEquals(toJson(entry.row, { state: "sent" }).tasks, []);
  // It survives a JSON round trip unchanged.
  assertEquals(JSON.parse(JSON.stringify(json)), json);
});

Deno.test("listToJson: says whether liveness was known", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  ledger.add({ task: "Task", pane: pane("p1") });
  const unknown = listToJson(ledger.list({}, null));
  assertEquals(unknown.liveness, "unknown");
  assertEquals(unknown.rows[0].state, "pending");
  const known = listToJson(ledger.list({}, new Map()));
  assertEquals(known.liveness, "known");
  assertEquals(known.rows[0].state, "gone");
});
