/**
 * End-to-end tests of `skiff ledger update`, `done` and `rm`: generations,
 * plans with tasks, result files left alone, and ids and uids never reused.
 */

import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { agentDir, fails, failsJson, list, panes, row } from "../helpers/ledger.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";

Deno.test("ledger update: state, pane, text, ref and result, with generations", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    await skiff.ok(["new", "--name", "v", "--", ...BASH]);
    let [w, v] = await panes(skiff);
    const t = await row(skiff, ["add", "--pane", "w", "--task", "Old text", "--ref", "R-1"]);
    assertEquals(t.generation, w.generation);
    const result = t.result;

    let u = await row(skiff, ["update", t.uid, "--task", "New text", "--ref", "R-2"]);
    assertEquals([u.task, u.ref, u.state, u.result], ["New text", "R-2", "pending", result]);
    u = await row(skiff, ["update", t.uid, "--ref", ""]);
    assertEquals(u.ref, null, "an empty --ref clears it");
    const moved = await skiff.json<{ row: TaskJson }>(
      ["ledger", "update", t.uid.slice(0, 6), "--result", "elsewhere/r.md"],
      { cwd: skiff.root },
    );
    assertEquals(moved.row.result, join(skiff.root, "elsewhere", "r.md"));

    // A new pane stores its id, name and generation.
    u = await row(skiff, ["update", t.uid, "--pane", "v"]);
    assertEquals([u.pane, u.pane_name, u.generation], [v.id, "v", v.generation]);
    await fails(skiff, ["ledger", "update", t.uid, "--pane", "nope"], 3, /No pane 'nope'/);

    // --state sent stores the pane's generation now: after a restart, the new one.
    await skiff.ok(["daemon", "restart"]);
    [w, v] = await panes(skiff);
    assertNotEquals(v.generation, u.generation, "a restart gives a new generation");
    u = await row(skiff, ["update", t.uid, "--state", "sent"]);
    assertEquals([u.state, u.stored_state, u.generation], ["sent", "sent", v.generation]);
    assert(u.sent_at !== null, "sent_at is stamped");
    assertEquals((await row(skiff, ["show", t.uid])).state, "sent", "not interrupted");
    u = await row(skiff, ["update", t.uid, "--state", "blocked"]);
    assertEquals([u.state, u.generation], ["blocked", v.generation]);

    // With skiffd stopped, --state sent stores no generation, and does not start skiffd.
    await skiff.ok(["daemon", "stop"]);
    u = await row(skiff, ["update", t.uid, "--state", "sent"]);
    assertEquals([u.state, u.generation], ["sent", null]);
    assertEquals((await skiff.run(["daemon", "status"])).code, 4, "skiffd was not started");

    // A plan takes no pane; shown states cannot be set; something must change.
    const plan = await row(skiff, ["add", "--task", "A plan"]);
    await fails(skiff, ["ledger", "update", plan.uid, "--pane", "w"], 2, /plan has no pane/);
    await fails(skiff, ["ledger", "update", t.uid, "--state", "gone"], 2, /cannot be set/);
    await fails(skiff, ["ledger", "update", t.uid], 2, /Nothing to change/);
    await fails(skiff, ["ledger", "update", "ffff0000", "--task", "x"], 3, /No task/);
    assertMatch(
      await skiff.ok(["ledger", "update", t.uid, "--task", "x"]),
      /^Updated [0-9a-f]{8}\n$/,
    );
  });
});

Deno.test("ledger done and rm: plans with tasks, no file deleted, ids and uids never reused", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    const plan = await row(skiff, ["add", "--task", "Plan"]);
    const t1 = await row(skiff, ["add", "--pane", "w", "--task", "One", "--parent", plan.uid]);
    const t2 = await row(skiff, ["add", "--pane", "w", "--task", "Two", "--parent", plan.uid]);

    const err = await failsJson(skiff, ["ledger", "done", plan.uid], 5);
    assertEquals(err.code, "conflict");
    assertMatch(err.message, /open task/);
    assertMatch(await skiff.ok(["ledger", "done", t1.uid]), new RegExp(`^Done: ${t1.uid}\n$`));
    const done = await row(skiff, ["done", t2.uid]);
    assertEquals([done.state, typeof done.done_at], ["done", "string"]);
    const planDone = await row(skiff, ["done", plan.uid]);
    assertEquals(planDone.state, "done");
    assertEquals(planDone.tasks!.map((t) => t.state), ["done", "done"]);
    assertEquals((await list(skiff)).rows, [], "done rows are not listed by default");

    // rm deletes no file.
    await Deno.mkdir(dirname(t1.result), { recursive: true });
    await Deno.writeTextFile(t1.result, "the result");
    await fails(skiff, ["ledger", "rm", plan.uid], 5, /has 2 task\(s\)/);
    const removed = await skiff.json<{ removed: string[]; row: TaskJson }>(
      ["ledger", "rm", plan.uid, "--with-tasks"],
    );
    assertEquals(removed.removed, [plan.uid, t1.uid, t2.uid]);
    assertEquals(removed.row.tasks!.map((t) => t.uid), [t1.uid, t2.uid]);
    assertEquals(await Deno.readTextFile(t1.result), "the result", "the result file stays");
    await fails(skiff, ["ledger", "show", plan.uid], 3, /No task/);
    assertEquals((await list(skiff, ["--all"])).rows, []);

    // A new row gets a new id and a new uid.
    const again = await row(skiff, ["add", "--pane", "w", "--task", "One"]);
    assert(again.id > t2.id, `id ${again.id} is new`);
    assert(![plan.uid, t1.uid, t2.uid].includes(again.uid), "the uid is new");
    assertMatch(
      await skiff.ok(["ledger", "rm", again.uid]),
      new RegExp(`^Removed task ${again.uid}\n$`),
    );
    const third = await row(skiff, ["add", "--task", "Three"]);
    assertEquals(third.id, again.id + 1);
    // Every uid ever given stays given.
    const db = new DatabaseSync(join(agentDir(skiff), "ledger.db"), { readOnly: true });
    try {
      const used = db.prepare("SELECT uid FROM used_uids ORDER BY uid").all().map((r) => r.uid);
      assertEquals(used, [plan.uid, t1.uid, t2.uid, again.uid, third.uid].sort());
    } finally {
      db.close();
    }
  });
});
