/**
 * The ledger's `landed` rows: which tasks a landing of a worktree carries
 * (by the worktree's id stored at the send, or for an older send by its
 * pane and branch), how they are marked (done, with the base and the commit
 * range, in one transaction), how they show and list, and that opening a
 * task again forgets the landing.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { open, pane, raw, tempDir } from "../../helpers/ledger.ts";
import { entryToJson, type Ledger, taskShownState } from "../../../lib/ledger/mod.ts";

const FROM = "1".repeat(40);
const TO = "2".repeat(40);
const TREE = { host: null, worktree: "w3", branch: "skiff/fix", panes: ["p1", "p9"] };

/** Sends task `uid` as a delivery does: claimed, then finished `sent` with the pane's worktree. */
function send(ledger: Ledger, uid: string, worktree: string | null, branch: string | null): void {
  ledger.claimForSend(uid);
  ledger.finishSend(uid, "sent", { generation: 1000, branch, worktree });
}

Deno.test("tasksOn finds the tasks sent on a worktree, and only those", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const p1 = pane("p1", 1000, "fix");
  const byId = ledger.add({ task: "Fix the parser", pane: p1 });
  send(ledger, byId.uid, "w3", "skiff/fix");
  // Sent before the ledger kept worktree ids: found by its pane and branch.
  const older = ledger.add({ task: "Older send", pane: p1 });
  send(ledger, older.uid, null, "skiff/fix");
  const done = ledger.add({ task: "Done already", pane: pane("p9") });
  send(ledger, done.uid, "w3", "skiff/fix");
  ledger.done(done.uid);
  // Not carried: pending (never delivered), blocked (no agent took it), another worktree,
  // another branch of the pane, the same worktree id on another host, and a plan.
  ledger.add({ task: "Pending", pane: p1 });
  const blocked = ledger.add({ task: "Blocked", pane: p1 });
  ledger.claimForSend(blocked.uid);
  ledger.finishSend(blocked.uid, "blocked", { branch: "skiff/fix", worktree: "w3" });
  const other = ledger.add({ task: "Other worktree", pane: pane("p2") });
  send(ledger, other.uid, "w4", "skiff/other");
  const elsewhere = ledger.add({ task: "Other branch", pane: p1 });
  send(ledger, elsewhere.uid, null, "main");
  const far = ledger.add({ task: "Far", pane: { ...p1, host: "gpu1" } });
  raw(
    ledger.path,
    (db) =>
      db.prepare("UPDATE tasks SET state = 'sent', worktree = 'w3' WHERE uid = ?").run(far.uid),
  );
  ledger.add({ task: "A plan" });
  assertEquals(ledger.tasksOn(TREE).map((r) => r.task), [
    "Fix the parser",
    "Older send",
    "Done already",
  ]);
  assertEquals(ledger.tasksOn({ ...TREE, host: "gpu1" }).map((r) => r.task), ["Far"]);
});

Deno.test("markLanded marks each task done and landed with its range, once", async () => {
  await using dir = await tempDir();
  let clock = new Date("2026-12-01T10:00:00.000Z");
  using ledger = open(dir.path, { now: () => clock });
  const a = ledger.add({ task: "Step one", pane: pane("p1") });
  send(ledger, a.uid, "w3", "skiff/fix");
  const b = ledger.add({ task: "Step two", pane: pane("p1") });
  send(ledger, b.uid, "w3", "skiff/fix");
  ledger.done(b.uid);
  clock = new Date("2026-12-01T11:00:00.000Z");
  const marked = ledger.markLanded(TREE, { into: "main", from: FROM, to: TO });
  assertEquals(marked.map((r) => r.uid), [a.uid, b.uid]);
  for (const row of marked) {
    assertEquals(row.state, "done");
    assertEquals(row.landed, { into: "main", from: FROM, to: TO, at: clock.toISOString() });
    assertEquals(taskShownState(row, new Map()), "landed");
    const json = entryToJson({ row, state: "landed" });
    assertEquals(json.landed?.range, `${FROM}..${TO}`);
    assertEquals(json.worktree, "w3");
  }
  // Done earlier keeps when it was done; the other is done as it lands.
  assertEquals(ledger.get(b.uid).doneAt, "2026-12-01T10:00:00.000Z");
  assertEquals(ledger.get(a.uid).doneAt, clock.toISOString());
  // A second landing carries only what was sent since.
  assertEquals(ledger.markLanded(TREE, { into: "main", from: TO, to: FROM }), []);
  assertEquals(ledger.get(a.uid).landed?.to, TO);
  // Landed rows are not open: the default listing leaves them out, --state landed lists them.
  assertEquals(ledger.list({}, null).entries.length, 0);
  assertEquals(
    ledger.list({ state: "landed" }, null).entries.map((e) => [e.row.uid, e.state]),
    [[a.uid, "landed"], [b.uid, "landed"]],
  );
  assertEquals(ledger.list({ state: "done" }, null).entries, []);
  assertEquals(ledger.openHosts(), []);
});

Deno.test("a landed task opened again forgets its landing", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const a = ledger.add({ task: "Step", pane: pane("p1") });
  send(ledger, a.uid, "w3", "skiff/fix");
  ledger.markLanded(TREE, { into: "main", from: FROM, to: TO });
  assert(ledger.get(a.uid).landed !== null);
  const reopened = ledger.update(a.uid, { state: "sent" });
  assertEquals([reopened.state, reopened.landed], ["sent", null]);
  // Setting done again by hand is done, not landed: no landing carried it.
  assertEquals(taskShownState(ledger.done(a.uid), null), "done");
});
