/**
 * End-to-end tests of the shown states of `skiff ledger ls` and `show`:
 * `interrupted` after a restart, `gone` after a kill, and unknown liveness
 * when skiffd does not run (which ls and show never start).
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";

async function add(skiff: SkiffEnv, args: string[]): Promise<TaskJson> {
  return (await skiff.json<{ row: TaskJson }>(["ledger", "add", ...args])).row;
}

/** The shown state of every listed row (tasks of plans too) by uid. */
async function states(skiff: SkiffEnv, args: string[] = []) {
  const out = await skiff.json<{ liveness: string; rows: TaskJson[] }>(["ledger", "ls", ...args]);
  const byUid: Record<string, string> = {};
  for (const r of out.rows) {
    byUid[r.uid] = r.state;
    for (const t of r.tasks ?? []) byUid[t.uid] = t.state;
  }
  return { liveness: out.liveness, states: byUid };
}

Deno.test("ledger ls and show: interrupted after a restart, gone after a kill, unknown when skiffd is down", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    await skiff.ok(["new", "--name", "v", "--", ...BASH]);
    const plan = await add(skiff, ["--task", "Plan"]);
    const sent = await add(skiff, ["--pane", "w", "--task", "Sent on w", "--parent", plan.uid]);
    const pending = await add(skiff, ["--pane", "w", "--task", "Pending on w"]);
    const blocked = await add(skiff, ["--pane", "w", "--task", "Blocked on w"]);
    const onV = await add(skiff, ["--pane", "v", "--task", "Sent on v"]);
    const doneOnV = await add(skiff, ["--pane", "v", "--task", "Done on v"]);
    await skiff.ok(["ledger", "update", sent.uid, "--state", "sent"]);
    await skiff.ok(["ledger", "update", blocked.uid, "--state", "blocked"]);
    await skiff.ok(["ledger", "update", onV.uid, "--state", "sent"]);
    await skiff.ok(["ledger", "done", doneOnV.uid]);

    assertEquals(await states(skiff), {
      liveness: "known",
      states: {
        [plan.uid]: "sent",
        [sent.uid]: "sent",
        [pending.uid]: "pending",
        [blocked.uid]: "blocked",
        [onV.uid]: "sent",
      },
    });

    // A restart gives every pane a new generation: sent and blocked tasks show interrupted.
    await skiff.ok(["daemon", "restart"]);
    const after = await waitFor("the restored panes to show", async () => {
      const now = await states(skiff);
      return now.states[sent.uid] === "interrupted" ? now : undefined;
    });
    assertEquals(after.states, {
      [plan.uid]: "sent",
      [sent.uid]: "interrupted",
      [pending.uid]: "pending",
      [blocked.uid]: "interrupted",
      [onV.uid]: "interrupted",
    });
    const shown = await skiff.json<{ liveness: string; row: TaskJson }>(
      ["ledger", "show", sent.uid],
    );
    assertEquals([shown.liveness, shown.row.state, shown.row.stored_state], [
      "known",
      "interrupted",
      "sent",
    ]);
    assertMatch(
      await skiff.ok(["ledger", "show", blocked.uid]),
      /^state:\s+interrupted \(stored: blocked\)$/m,
    );
    assertEquals(
      Object.keys((await states(skiff, ["--state", "interrupted"])).states).sort(),
      [
        plan.uid,
        sent.uid,
        blocked.uid,
        onV.uid,
      ].sort(),
    );
    // Sending again stores the new generation: sent, not interrupted.
    await skiff.ok(["ledger", "update", onV.uid, "--state", "sent"]);
    assertEquals((await states(skiff)).states[onV.uid], "sent");

    // A killed pane's open tasks show gone; done ones stay done.
    await skiff.ok(["kill", "v"]);
    const killed = await states(skiff, ["--all"]);
    assertEquals([killed.states[onV.uid], killed.states[doneOnV.uid]], ["gone", "done"]);
    assertEquals(Object.keys((await states(skiff, ["--state", "gone"])).states), [onV.uid]);
    const text = await skiff.run(["ledger", "ls"]);
    assertMatch(
      text.stdout,
      new RegExp(`^${onV.uid}\\s+\\d+\\s+gone \\(sent\\)\\s+p2 \\(v\\)`, "m"),
    );
    assertMatch(text.stdout, new RegExp(`^  ${sent.uid}\\s+\\d+\\s+interrupted \\(sent\\)`, "m"));
    assertEquals(text.stderr, "");

    // skiffd down: stored states, liveness unknown, one notice line, and skiffd stays down.
    await skiff.ok(["daemon", "stop"]);
    const down = await states(skiff);
    assertEquals(down.liveness, "unknown");
    assertEquals([down.states[sent.uid], down.states[blocked.uid], down.states[onV.uid]], [
      "sent",
      "blocked",
      "sent",
    ]);
    const json = await skiff.run(["ledger", "ls", "--json"]);
    assertEquals(json.stderr, "", "no notice in JSON mode");
    const plain = await skiff.run(["ledger", "ls"]);
    assertEquals(plain.code, 0);
    assertMatch(plain.stderr, /^skiff: skiffd is not running, so liveness is unknown[^\n]*\n$/);
    assertMatch(plain.stdout, new RegExp(`^  ${sent.uid}\\s+\\d+\\s+sent\\s`, "m"));
    const one = await skiff.run(["ledger", "show", sent.uid, "--json"]);
    assertEquals(JSON.parse(one.stdout).liveness, "unknown");
    assertEquals(JSON.parse(one.stdout).row.state, "sent");
    const oneText = await skiff.run(["ledger", "show", sent.uid]);
    assertMatch(oneText.stderr, /liveness is unknown/);
    // Commands that need no pane leave skiffd down too.
    await skiff.ok(["ledger", "add", "--task", "Another plan"]);
    await skiff.ok(["ledger", "update", pending.uid, "--task", "Renamed"]);
    await skiff.ok(["ledger", "done", pending.uid]);
    const status = await skiff.run(["daemon", "status"]);
    assertEquals(status.code, 4, "ledger commands did not start skiffd");
    assert(status.stdout.includes("not running"), status.stdout);

    // add --pane starts skiffd to look the pane up, and stores its new generation.
    const cold = await add(skiff, ["--pane", "w", "--task", "After a cold start"]);
    const { panes } = await skiff.json<{ panes: { id: string; generation: number }[] }>(["ls"]);
    const w = panes.find((p) => p.id === cold.pane)!;
    assertEquals([cold.pane_name, cold.generation], ["w", w.generation]);
    assertEquals((await skiff.run(["daemon", "status"])).code, 0);
  });
});
