import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  type Ledger,
  type ListFilter,
  listToJson,
  type Liveness,
  type ShownState,
} from "../../../lib/ledger/mod.ts";
import { open, pane, raw, tempDir } from "../../helpers/ledger.ts";
import { joinBytes } from "../../../lib/platform/bytes.ts";

const live = (panes: Record<string, number | null>): Liveness =>
  new Map(Object.entries(panes).map(([id, generation]) => [id, { generation }]));

/** A ledger with every kind of row the listing rules tell apart. */
function fill(ledger: Ledger): void {
  const p1 = pane("p1", 1000, "web");
  const p2 = pane("p2", 2000, "api");
  const p3 = pane("p3", null, "docs");
  const p4 = pane("p4", 4000, "gone-pane");
  ledger.add({ task: "empty plan" });
  ledger.add({ task: "empty pending plan", state: "pending" });
  ledger.add({ task: "empty done plan", state: "done" });
  const open = ledger.add({ task: "plan with open tasks", ref: "JIRA-1" });
  ledger.add({ task: "sent on p1", pane: p1, parent: open.uid, state: "sent" });
  ledger.add({ task: "pending on p2", pane: p2, parent: open.uid });
  const blocked = ledger.add({ task: "blocked on p2", pane: p2, parent: open.uid });
  ledger.setBlocked(blocked.uid, 2000);
  ledger.add({ task: "done on p4", pane: p4, parent: open.uid, state: "done" });
  const finished = ledger.add({ task: "plan whose tasks are done", state: "pending" });
  ledger.add({ task: "done a", pane: p1, parent: finished.uid, state: "done" });
  ledger.add({ task: "done b", pane: p3, parent: finished.uid, state: "done" });
  const sent = ledger.add({ task: "sent on p1, old generation", pane: p1 });
  ledger.setSent(sent.uid, 999);
  ledger.add({ task: "sent on p3", pane: p3, state: "sent" });
  const noted = ledger.add({ task: "typed without Enter", pane: p2 });
  ledger.claimForSend(noted.uid);
  ledger.finishSend(noted.uid, "blocked", {
    generation: 2000,
    note: "typed without Enter: not submitted",
  });
  ledger.add({ task: "pending on p4", pane: p4 });
  ledger.add({ task: "absolute result", pane: p2, result: "/tmp/skiff result.md" });
  ledger.add({
    task: 'quotes " and \\ backslash, tab\there, newline\nthere, é 日本 🚀 \u0001 \u007f',
    pane: p1,
    ref: "ref with \"quotes\" and 'single'",
  });
  // Tasks on panes of other hosts: the same ids as local panes, told apart by the host.
  const far1 = { ...pane("p1", 1000, "web"), host: "gpu1" };
  const far2 = { ...pane("p2", 2000, "api"), host: "gpu2" };
  const farSent = ledger.add({ task: "sent on gpu1:p1", pane: far1, parent: open.uid });
  ledger.setSent(farSent.uid, 1000);
  ledger.add({ task: "pending on gpu1:p1", pane: far1 });
  ledger.add({ task: "sent on gpu2:p2", pane: far2, state: "sent" });
  ledger.add({ task: "done on gpu2:p2", pane: far2, state: "done" });
  // Tasks whose work `skiff land` landed: one under a plan, one sent on a worktree by itself.
  const landedPlan = ledger.add({ task: "plan whose task landed" });
  const onTree = ledger.add({ task: "landed under a plan", pane: p1, parent: landedPlan.uid });
  ledger.claimForSend(onTree.uid);
  ledger.finishSend(onTree.uid, "sent", { generation: 1000, branch: "skiff/a", worktree: "w1" });
  const alone = ledger.add({ task: "landed alone", pane: p4 });
  ledger.claimForSend(alone.uid);
  ledger.finishSend(alone.uid, "sent", { generation: 4000, branch: "skiff/a", worktree: "w1" });
  ledger.markLanded(
    { host: null, worktree: "w1", branch: "skiff/a", panes: ["p1"] },
    { into: "main", from: "a".repeat(40), to: "b".repeat(40) },
  );
  // Rows the CLI never makes but a hand-edited file may hold.
  const orphan = ledger.add({ task: "task whose plan went", pane: p2 });
  const child = ledger.add({ task: "task under a task", pane: p1 });
  const relative = ledger.add({ task: "relative stored result", pane: p3 });
  // Stored results that need resolving, each against the fast path for plain ones.
  const odd = ["./x.md", "a/.hidden/x.md", "dir/", "", ".", "..x/y.md", "a..b/c.md", "x/..."];
  const oddRows = odd.map((result) => ({
    result,
    uid: ledger.add({ task: `result ${JSON.stringify(result)}`, pane: p3 }).uid,
  }));
  raw(ledger.path, (db) => {
    for (const { result, uid } of oddRows) {
      db.prepare("UPDATE tasks SET result = ? WHERE uid = ?").run(result, uid);
    }
    db.prepare("UPDATE tasks SET parent_id = 9999 WHERE uid = ?").run(orphan.uid);
    db.prepare("UPDATE tasks SET parent_id = (SELECT id FROM tasks WHERE uid = ?) WHERE uid = ?")
      .run(sent.uid, child.uid);
    db.prepare("UPDATE tasks SET result = '../up/./there//x.md' WHERE uid = ?").run(relative.uid);
  });
}

const LIVENESS: [string, Liveness][] = [
  ["unknown", null],
  ["no panes", live({})],
  ["some panes", live({ p1: 1000, p2: 2001, p3: null })],
  ["all panes", live({ p1: 1000, p2: 2000, p3: 7, p4: 4000 })],
  [
    "hosts: gpu1 up, gpu2 unreachable",
    live({ p1: 1000, "gpu1:*": null, "gpu1:p1": 1000, "gpu2:": null }),
  ],
  [
    "hosts: gpu1 restarted, gpu2 up",
    live({ "gpu1:*": null, "gpu1:p1": 1001, "gpu2:*": null, "gpu2:p2": 2000 }),
  ],
  ["hosts: gpu1 up with no panes, gpu2 not asked", live({ p2: 2000, "gpu1:*": null })],
];

const STATES: ShownState[] = [
  "sent",
  "pending",
  "blocked",
  "done",
  "interrupted",
  "gone",
  "unreachable",
  "landed",
];

function filters(ledger: Ledger): [string, ListFilter][] {
  const planUid =
    ledger.list({ all: true }, null).entries.find((e) => e.row.task === "plan with open tasks")!.row
      .uid;
  return [
    ["default", {}],
    ["all", { all: true }],
    ...STATES.map((s): [string, ListFilter] => [`state ${s}`, { state: s }]),
    ["states sent,gone", { state: ["sent", "gone"] }],
    ["states done,landed", { state: ["done", "landed"] }],
    ["pane p1", { pane: "p1" }],
    ["pane by name", { pane: "api" }],
    ["pane with all", { pane: "p4", all: true }],
    ["pane and state", { pane: "p2", state: ["blocked", "interrupted"] }],
    ["plan", { plan: planUid }],
    ["plan with all", { plan: planUid, all: true }],
    ["plan and state", { plan: planUid, state: "done" }],
    ["no match", { pane: "nobody" }],
    ["pane on a host", { pane: "gpu1:p1" }],
    ["pane by name on a host", { pane: "gpu2:api", all: true }],
    ["pane on a host and state", { pane: "gpu2:p2", state: "unreachable" }],
  ];
}

Deno.test("listJson gives the same rows as listToJson for every filter and liveness", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  fill(ledger);
  let compared = 0;
  for (const [liveName, liveness] of LIVENESS) {
    for (const [filterName, filter] of filters(ledger)) {
      const want = listToJson(ledger.list(filter, liveness)).rows;
      const text = new TextDecoder().decode(joinBytes(ledger.listJson(filter, liveness)));
      assertEquals(JSON.parse(text), want, `${filterName}, liveness ${liveName}`);
      // Byte for byte what JSON.stringify writes: key order, escapes and numbers.
      assertEquals(text, JSON.stringify(want), `${filterName}, liveness ${liveName}: the text`);
      compared += want.length;
    }
  }
  assert(compared > 100, "the cases list many rows");
});

Deno.test("listJson keeps the key order of the JSON shape, and an empty ledger gives []", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  assertEquals(new TextDecoder().decode(joinBytes(ledger.listJson({}, null))), "[]");
  ledger.add({ task: "plan" });
  const [plan] = JSON.parse(new TextDecoder().decode(joinBytes(ledger.listJson({}, null))));
  assertEquals(Object.keys(plan), Object.keys(listToJson(ledger.list({}, null)).rows[0]));
});

Deno.test("listJson refuses what list refuses", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const task = ledger.add({ task: "a task", pane: pane("p1") });
  assertThrows(() => ledger.listJson({ state: "lost" as ShownState }, null), /not a state/);
  assertThrows(() => ledger.listJson({ plan: task.uid }, null), /is a task, not a plan/);
});
