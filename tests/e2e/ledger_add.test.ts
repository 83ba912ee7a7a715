/**
 * End-to-end tests of `skiff ledger add`, `ls` and `show`: plans and tasks,
 * computed result paths, refs and their ambiguity, and where the ledger lives.
 * Editing is in `ledger_edit.test.ts`; errors, damage, locks and concurrency
 * are in `ledger_errors.test.ts`; liveness is in `ledger_liveness.test.ts`.
 */

import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  agentDir,
  exists,
  fails,
  failsJson,
  files,
  list,
  panes,
  row,
  uids,
} from "../helpers/ledger.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";
import { SETUP_NAMES } from "../helpers/skipper.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";

/** The parent's time zone, so that the date in result paths is the same in both. */
const TZ_ENV: Record<string, string> = Deno.env.get("TZ") ? { TZ: Deno.env.get("TZ")! } : {};

function today(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

Deno.test("ledger add: plans, tasks in plans, computed result paths, and no file made", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "rev", "--", ...BASH]);
    const [pane] = await panes(skiff);
    const dir = agentDir(skiff);
    const before = today();

    // A plan, in text mode: "<uid> <result path>".
    const text = await skiff.ok(["ledger", "add", "--task", "Release 2.0 — Café déjà vu!"]);
    const match = /^([0-9a-f]{8}) (\S+)\n$/.exec(text);
    assert(match, `add prints the uid and the path: ${JSON.stringify(text)}`);
    const [, planUid, planPath] = match;
    const dates = new Set([before, today()]);
    const planDir = dirname(planPath);
    assertEquals(dirname(planDir), join(dir, "results"));
    assertMatch(
      planPath,
      new RegExp(`/(\\d{4}-\\d\\d-\\d\\d)-${planUid}-release-2-0-cafe-deja-vu/plan\\.md$`),
    );
    assert(dates.has(/(\d{4}-\d\d-\d\d)-/.exec(planPath)![1]), `today's date in ${planPath}`);

    const plan = await row(skiff, ["show", planUid]);
    assertEquals([plan.kind, plan.state, plan.pane, plan.generation], ["plan", "open", null, null]);
    assertEquals(plan.result, planPath);

    // A task in the plan, by a uid prefix, and by the pane's name: the pane is stored.
    const task = await row(skiff, [
      "add",
      "--pane",
      "rev",
      "--task",
      "Review the parser, then report",
      "--parent",
      planUid.slice(0, 4),
      "--ref",
      "JIRA-7",
    ]);
    assertMatch(task.uid, /^[0-9a-f]{8}$/);
    assertEquals(task.kind, "task");
    assertEquals(task.state, "pending");
    assertEquals(task.parent, planUid);
    assertEquals([task.pane, task.pane_name, task.generation], [pane.id, "rev", pane.generation]);
    assertEquals(task.ref, "JIRA-7");
    assertEquals(task.result, join(planDir, `${task.uid}-review-the-parser-then-report.md`));

    // A task with no plan, by pane id.
    const alone = await row(skiff, ["add", "--pane", pane.id, "--task", "Fix the login page"]);
    assertEquals(alone.pane_name, "rev");
    assertMatch(
      alone.result,
      new RegExp(`^${dir}/results/\\d{4}-\\d\\d-\\d\\d-${alone.uid}-fix-the-login-page\\.md$`),
    );
    assertEquals(alone.parent, null);

    // A result path that the caller gives is kept, made absolute against the current folder.
    const given = await skiff.json<{ row: TaskJson }>(
      ["ledger", "add", "--pane", "rev", "--task", "Elsewhere", "--result", "out/e.md"],
      { cwd: skiff.root },
    );
    assertEquals(given.row.result, join(skiff.root, "out", "e.md"));

    // Three different uids; add made no file besides the ledger and the folder's setup.
    assertEquals(new Set([planUid, task.uid, alone.uid, given.row.uid]).size, 4);
    const made = (await files(dir)).filter((f) => !/^ledger\.db(-wal|-shm)?$/.test(f));
    assertEquals(made, SETUP_NAMES, "the ledger and the setup are in the agent's folder");
    assertEquals(await files(join(dir, "results")), [], "no result file made");
    assert(!(await exists(join(skiff.root, "out"))), "no folder made for a given result");

    // Errors: an unknown pane, a task in a task, a plan in a plan, no task text.
    await fails(skiff, ["ledger", "add", "--pane", "nope", "--task", "x"], 3, /No pane 'nope'/);
    const err = await failsJson(skiff, ["ledger", "add", "--pane", "nope", "--task", "x"], 3);
    assertEquals(err.code, "not_found");
    await fails(
      skiff,
      ["ledger", "add", "--pane", "rev", "--task", "x", "--parent", alone.uid],
      2,
      /is a task, not a plan/,
    );
    await fails(skiff, ["ledger", "add", "--task", "x", "--parent", planUid], 2, /plan/);
    await fails(skiff, ["ledger", "add", "--pane", "rev"], 2, /--task/);
    await fails(skiff, ["ledger", "add", "--task", "  "], 2, /empty/);
    await fails(skiff, ["ledger", "add", "--task", "x", "--parent", "ffffffff"], 3, /No task/);
    await fails(skiff, ["ledger", "add", "--task", "x", "--send"], 2, /--send needs --pane/);
    await fails(skiff, ["ledger", "add", "--task", "x", "--enter"], 2, /--enter needs --send/);
    assertEquals(uids((await list(skiff)).rows).length, 4, "no failed add left a row");
  }, TZ_ENV);
});

Deno.test("ledger add --task - reads the task text from stdin, as skiff send - does", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "rev", "--", ...BASH]);
    const text = "Review the parser change.\nList each bug with file:line.\n\n";
    const added = await skiff.run(["ledger", "add", "--pane", "rev", "--task", "-", "--json"], {
      stdin: text,
    });
    assertEquals(added.code, 0, added.stderr);
    const task = (JSON.parse(added.stdout) as { row: TaskJson }).row;
    assertEquals(task.task, "Review the parser change.\nList each bug with file:line.");
    assertMatch(
      task.result,
      new RegExp(`/\\d{4}-\\d\\d-\\d\\d-${task.uid}-review-the-parser-change`),
    );
    // A plan too, and update --task -.
    const plan = await skiff.run(["ledger", "add", "--task", "-"], { stdin: "Release 2.0\n" });
    assertEquals(plan.code, 0, plan.stderr);
    const planUid = plan.stdout.split(" ")[0];
    assertEquals((await row(skiff, ["show", planUid])).task, "Release 2.0");
    const updated = await skiff.run(["ledger", "update", task.uid, "--task", "-"], {
      stdin: "Review it again\n",
    });
    assertEquals(updated.code, 0, updated.stderr);
    assertEquals((await row(skiff, ["show", task.uid])).task, "Review it again");
    // Empty stdin is an empty task: refused, nothing added; so is stdin over 32 KB.
    const empty = await skiff.run(["ledger", "add", "--task", "-"], { stdin: "\n" });
    assertEquals([empty.code, empty.stderr], [2, "skiff: Task text is empty\n"]);
    const big = await skiff.run(["ledger", "add", "--task", "-"], { stdin: "x".repeat(40_000) });
    assertEquals(big.code, 2);
    assertMatch(big.stderr, /the limit is 32 KB/);
    assertEquals(uids((await list(skiff)).rows).length, 2, "a task and a plan, nothing else");
    assert(!uids((await list(skiff)).rows).some((u) => u === "-"));
  }, TZ_ENV);
});

Deno.test("a plan with no tasks shows open, in text and JSON: nothing was sent for it", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    const empty = await row(skiff, ["add", "--task", "Release 2.0"]);
    assertEquals([empty.state, empty.stored_state, empty.sent_at], ["open", "sent", null]);
    const shown = await row(skiff, ["show", empty.uid]);
    assertEquals(shown.state, "open");
    const listed = (await list(skiff)).rows.find((r) => r.uid === empty.uid)!;
    assertEquals([listed.state, listed.tasks], ["open", []]);
    assertEquals((await list(skiff, ["--state", "open"])).rows.map((r) => r.uid), [empty.uid]);
    const text = await skiff.ok(["ledger", "ls"]);
    assertMatch(text, new RegExp(`^${empty.uid}\\s+\\d+\\s+open\\s+plan\\s+Release 2\\.0$`, "m"));
    assertMatch(await skiff.ok(["ledger", "show", empty.uid]), /\bopen\b/);
    // The spec's rules hold once it has tasks: sent while one is open, done when all are.
    const task = await row(skiff, ["add", "--pane", "w", "--task", "Step", "--parent", empty.uid]);
    assertEquals(task.state, "pending", "a task's states are the spec's");
    assertEquals((await row(skiff, ["show", empty.uid])).state, "sent");
    await skiff.ok(["ledger", "done", task.uid]);
    assertEquals((await row(skiff, ["show", empty.uid])).state, "done");
    // A plan set by hand shows what it was set to; open cannot be set.
    const other = await row(skiff, ["add", "--task", "Later"]);
    await skiff.ok(["ledger", "update", other.uid, "--state", "pending"]);
    assertEquals((await row(skiff, ["show", other.uid])).state, "pending");
    await fails(
      skiff,
      ["ledger", "update", other.uid, "--state", "open"],
      2,
      /'open' is computed when shown and cannot be set/,
    );
  });
});

Deno.test("ledger ls: plans with their tasks, --all, --state, --pane and --plan; show", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    await skiff.ok(["new", "--name", "v", "--", ...BASH]);
    const add = (args: string[]) => row(skiff, ["add", ...args]);
    const a = await add(["--task", "Plan A"]);
    const t1 = await add(["--pane", "w", "--task", "One", "--parent", a.uid]);
    const t2 = await add(["--pane", "v", "--task", "Two\nsecond line", "--parent", a.uid]);
    const t3 = await add(["--pane", "v", "--task", "Three"]);
    const b = await add(["--task", "Plan B"]);
    await skiff.ok(["ledger", "done", t1.uid]);
    await skiff.ok(["ledger", "update", t3.uid, "--state", "blocked"]);

    let listing = await list(skiff);
    assertEquals(listing.liveness, "known");
    assertEquals(uids(listing.rows), [a.uid, `${a.uid}/${t2.uid}`, t3.uid, b.uid]);
    assertEquals(listing.rows[0].state, "sent", "a plan with an open task shows sent");
    assertEquals(listing.rows[0].tasks![0].task, "Two\nsecond line");

    listing = await list(skiff, ["--all"]);
    assertEquals(uids(listing.rows), [
      a.uid,
      `${a.uid}/${t1.uid}`,
      `${a.uid}/${t2.uid}`,
      t3.uid,
      b.uid,
    ]);
    assertEquals(uids((await list(skiff, ["--state", "done"])).rows), [
      a.uid,
      `${a.uid}/${t1.uid}`,
    ]);
    assertEquals(uids((await list(skiff, ["--state", "pending"])).rows), [
      a.uid,
      `${a.uid}/${t2.uid}`,
    ]);
    assertEquals(uids((await list(skiff, ["--state", "blocked,done"])).rows), [
      a.uid,
      `${a.uid}/${t1.uid}`,
      t3.uid,
    ]);
    assertEquals(uids((await list(skiff, ["--state", "sent"])).rows), [a.uid]);
    assertEquals(uids((await list(skiff, ["--state", "open"])).rows), [b.uid], "no task yet");
    assertEquals(uids((await list(skiff, ["--pane", "v"])).rows), [
      a.uid,
      `${a.uid}/${t2.uid}`,
      t3.uid,
    ]);
    assertEquals(uids((await list(skiff, ["--pane", t1.pane!, "--all"])).rows), [
      a.uid,
      `${a.uid}/${t1.uid}`,
    ]);
    assertEquals(uids((await list(skiff, ["--plan", a.uid.slice(0, 5)])).rows), [
      a.uid,
      `${a.uid}/${t2.uid}`,
    ]);
    assertEquals(uids((await list(skiff, ["--plan", String(b.id)])).rows), [b.uid]);
    await fails(skiff, ["ledger", "ls", "--plan", t3.uid], 2, /is a task, not a plan/);
    await fails(skiff, ["ledger", "ls", "--state", "opened"], 2, /'opened' is not a state/);

    // Text: a header, each plan's tasks indented under it, the first line of a task.
    const text = await skiff.run(["ledger", "ls"]);
    assertEquals(text.code, 0);
    assertEquals(text.stderr, "", "no notice while skiffd runs");
    const lines = text.stdout.trimEnd().split("\n");
    assertMatch(lines[0], /^UID\s+ID\s+STATE\s+PANE\s+TASK$/);
    assertMatch(lines[1], new RegExp(`^${a.uid}\\s+${a.id}\\s+sent\\s+plan\\s+Plan A$`));
    assertMatch(
      lines[2],
      new RegExp(`^  ${t2.uid}\\s+${t2.id}\\s+pending\\s+p2 \\(v\\)\\s+Two …$`),
    );
    assertMatch(lines[3], new RegExp(`^${t3.uid}\\s+${t3.id}\\s+blocked\\s+p2 \\(v\\)\\s+Three$`));
    assertEquals(lines.length, 5);
    assertMatch(
      await skiff.ok(["ledger", "ls", "--pane", "nobody"]),
      /^No rows match\.\n$/,
    );

    // show: a plan comes with all of its tasks, done ones too.
    const shown = await skiff.json<{ liveness: string; row: TaskJson }>(["ledger", "show", a.uid]);
    assertEquals(shown.liveness, "known");
    assertEquals(shown.row.uid, a.uid);
    assertEquals(shown.row.tasks!.map((t) => [t.uid, t.state]), [[t1.uid, "done"], [
      t2.uid,
      "pending",
    ]]);
    const task = await skiff.json<{ row: TaskJson }>(["ledger", "show", String(t3.id)]);
    assertEquals(task.row.uid, t3.uid);
    assertEquals(task.row.tasks, undefined);
    const details = await skiff.ok(["ledger", "show", t2.uid]);
    assertMatch(details, new RegExp(`^uid:\\s+${t2.uid}$`, "m"));
    assertMatch(details, /^state:\s+pending$/m);
    assertMatch(details, /^pane:\s+p2 \(v\), generation \d+$/m);
    assertMatch(details, /^task:\s+Two\n\s+second line$/m);
    assertMatch(details, new RegExp(`^plan:\\s+${a.uid}$`, "m"));
    const planText = await skiff.ok(["ledger", "show", a.uid]);
    assertMatch(planText, new RegExp(`^${t1.uid}\\s+${t1.id}\\s+done`, "m"));

    // An empty ledger says so.
    await withSkiff(async (other) => {
      assertMatch(await other.ok(["ledger", "ls", "--all"]), /^The ledger is empty\./);
      assertEquals((await list(other)).rows, []);
    });
  });
});

Deno.test("ledger refs: row id, uid, uid prefix, case; ambiguity lists the candidates", async () => {
  await withSkiff(async (skiff) => {
    const first = await row(skiff, ["add", "--task", "First"]);
    // Two rows whose uids share a prefix, written straight into the file.
    const db = new DatabaseSync(join(agentDir(skiff), "ledger.db"));
    try {
      const insert = db.prepare(
        `INSERT INTO tasks (uid, state, task, result, created_at, updated_at)
         VALUES (?, 'sent', ?, ?, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
      );
      for (const uid of ["abcd0001", "abcd0002"]) {
        db.prepare("INSERT INTO used_uids (uid) VALUES (?)").run(uid);
        insert.run(uid, `Row ${uid}`, `results/${uid}.md`);
      }
    } finally {
      db.close();
    }
    assertEquals((await row(skiff, ["show", "abcd0001"])).task, "Row abcd0001");
    assertEquals((await row(skiff, ["show", "abcd0002".toUpperCase()])).uid, "abcd0002");
    assertEquals((await row(skiff, ["show", String(first.id)])).uid, first.uid);
    assertEquals((await row(skiff, ["show", first.uid.slice(0, 4)])).uid, first.uid);

    const text = await fails(skiff, ["ledger", "show", "abcd"], 2, /ambiguous/);
    assertMatch(text.stderr, /abcd0001 \(ID 2\), abcd0002 \(ID 3\)/);
    const err = await failsJson(skiff, ["ledger", "done", "abcd"], 2);
    assertEquals(err.code, "usage");
    assertEquals(err.candidates, [{ id: 2, uid: "abcd0001" }, { id: 3, uid: "abcd0002" }]);
    await fails(skiff, ["ledger", "show", "abc"], 2, /too short/);
    await fails(skiff, ["ledger", "show", "zz-top"], 2, /not a task ID or uid/);
    await fails(skiff, ["ledger", "show", "99"], 3, /No task with ID or uid '99'/);
    assertEquals((await failsJson(skiff, ["ledger", "rm", "abcd0003"], 3)).code, "not_found");
    assertEquals((await list(skiff)).rows.length, 3, "nothing was changed");
  });
});

Deno.test("the ledger's place: ~/skiff-agent, [skiff_agent] folder, SKIFF_LEDGER", async () => {
  await withSkiff(async (skiff) => {
    const folder = join(skiff.root, "agent folder");
    await Deno.mkdir(join(skiff.root, "config"));
    await Deno.writeTextFile(skiff.configFile, `[skiff_agent]\nfolder = "${folder}"\n`);
    const plan = await row(skiff, ["add", "--task", "In the configured folder"]);
    assert(plan.result.startsWith(join(folder, "results") + "/"), plan.result);
    assert((await files(folder)).includes("ledger.db"), "ledger.db in the configured folder");
    assert(!(await exists(agentDir(skiff))), "nothing in the default folder");
    // SKIFF_LEDGER wins over the config, and result paths sit beside it.
    const path = join(skiff.root, "elsewhere", "tasks.db");
    skiff.env.SKIFF_LEDGER = path;
    const other = await row(skiff, ["add", "--task", "In SKIFF_LEDGER"]);
    assert(other.result.startsWith(join(skiff.root, "elsewhere", "results") + "/"), other.result);
    assert((await Deno.stat(path)).isFile, "SKIFF_LEDGER's file is made");
    assertEquals(uids((await list(skiff)).rows), [other.uid]);
    delete skiff.env.SKIFF_LEDGER;
    assertEquals(uids((await list(skiff)).rows), [plan.uid]);
  });
  await withSkiff(async (skiff) => {
    await row(skiff, ["add", "--task", "Default"]);
    assert((await Deno.stat(join(agentDir(skiff), "ledger.db"))).isFile, "~/skiff-agent/ledger.db");
  });
});
