/**
 * End-to-end tests of `skiff ledger`: the real program in isolated folders.
 * Liveness (interrupted, gone, unknown) is in `ledger_liveness.test.ts`.
 */

import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";
import type { PaneInfo } from "../../lib/daemon/pane_info.ts";

/** The parent's time zone, so that the date in result paths is the same in both. */
const TZ_ENV: Record<string, string> = Deno.env.get("TZ") ? { TZ: Deno.env.get("TZ")! } : {};

function today(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function agentDir(skiff: SkiffEnv): string {
  return join(skiff.env.HOME, "skiff-agent");
}

async function row(skiff: SkiffEnv, args: string[]): Promise<TaskJson> {
  return (await skiff.json<{ row: TaskJson }>(["ledger", ...args])).row;
}

async function list(skiff: SkiffEnv, args: string[] = []) {
  return await skiff.json<{ liveness: string; rows: TaskJson[] }>(["ledger", "ls", ...args]);
}

/** The uids of a listing, a plan's tasks as `plan/task`. */
function uids(rows: TaskJson[]): string[] {
  return rows.flatMap((r) => [r.uid, ...(r.tasks ?? []).map((t) => `${r.uid}/${t.uid}`)]);
}

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

async function files(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** Runs a command that must fail, and checks its exit code and one-line text error. */
async function fails(skiff: SkiffEnv, args: string[], code: number, pattern: RegExp) {
  const result = await skiff.run(args);
  assertEquals(result.code, code, `skiff ${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "");
  assertMatch(result.stderr, /^skiff: [^\n]+\n$/, "one error line");
  assertMatch(result.stderr, pattern);
  return result;
}

/** Runs a command with --json that must fail, and returns the error object from stderr. */
async function failsJson(skiff: SkiffEnv, args: string[], code: number) {
  const result = await skiff.run([...args, "--json"]);
  assertEquals(result.code, code, `skiff ${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "", "nothing on stdout");
  const lines = result.stderr.trim().split("\n");
  assertEquals(lines.length, 1, "one JSON line on stderr");
  const body = JSON.parse(lines[0]);
  assertEquals(body.schema_version, 1);
  assertEquals(body.error.exit, code);
  return body.error as { code: string; exit: number; message: string; [k: string]: unknown };
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
    assertEquals([plan.kind, plan.state, plan.pane, plan.generation], ["plan", "sent", null, null]);
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

    // Three different uids; add made no file besides the ledger.
    assertEquals(new Set([planUid, task.uid, alone.uid, given.row.uid]).size, 4);
    const made = (await files(dir)).filter((f) => !/^ledger\.db(-wal|-shm)?$/.test(f));
    assertEquals(made, [], "only the ledger is in the agent's folder");
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
    await fails(skiff, ["ledger", "add", "--task", "x", "--enter"], 2, /go with --send/);
    assertEquals(uids((await list(skiff)).rows).length, 4, "no failed add left a row");
  }, TZ_ENV);
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

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
    assertEquals(uids((await list(skiff, ["--state", "sent"])).rows), [a.uid, b.uid]);
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
    await fails(skiff, ["ledger", "ls", "--state", "open"], 2, /'open' is not a state/);

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

Deno.test("a damaged, foreign or newer ledger.db gives exit 6 and stays byte for byte", async () => {
  await withSkiff(async (skiff) => {
    const dir = agentDir(skiff);
    const path = join(dir, "ledger.db");
    await Deno.mkdir(dir);
    const cases: [string, () => void][] = [
      ["not SQLite", () => Deno.writeTextFileSync(path, "this is not a database\n".repeat(50))],
      ["foreign", () => {
        const db = new DatabaseSync(path);
        db.exec(
          "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')",
        );
        db.close();
      }],
      ["newer", () => {
        const db = new DatabaseSync(path);
        db.exec("CREATE TABLE tasks (id INTEGER PRIMARY KEY); PRAGMA user_version = 9");
        db.close();
      }],
    ];
    for (const [what, make] of cases) {
      await Deno.remove(path).catch(() => {});
      make();
      const bytes = await Deno.readFile(path);
      for (const args of [["ls"], ["add", "--task", "x"], ["show", "1"], ["rm", "1"]]) {
        const result = await fails(skiff, ["ledger", ...args], 6, /ledger|Skiff/i);
        assert(!result.stderr.includes("Internal"), `${what}: ${result.stderr}`);
        const err = await failsJson(skiff, ["ledger", ...args], 6);
        assertEquals(err.code, "data");
        assertEquals(err.path, path);
      }
      assertEquals(await Deno.readFile(path), bytes, `${what}: the file is unchanged`);
      assertEquals(await files(dir), ["ledger.db"], `${what}: no other file appeared`);
    }
  });
});

Deno.test("a locked ledger gives exit 6 to a writer; readers still read", async () => {
  await withSkiff(async (skiff) => {
    const plan = await row(skiff, ["add", "--task", "Before the lock"]);
    const db = new DatabaseSync(join(agentDir(skiff), "ledger.db"));
    try {
      db.exec("BEGIN IMMEDIATE");
      assertEquals(uids((await list(skiff)).rows), [plan.uid]);
      const started = Date.now();
      await fails(skiff, ["ledger", "add", "--task", "x"], 6, /locked by another process/);
      assert(Date.now() - started >= 9_000, "it waited for the lock first");
    } finally {
      db.exec("ROLLBACK");
      db.close();
    }
    await row(skiff, ["add", "--task", "After the lock"]);
  });
});

Deno.test("16 concurrent 'skiff ledger add' processes lose no row", async () => {
  await withSkiff(async (skiff) => {
    const workers = 16;
    const each = 3;
    const started = performance.now();
    const added = await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        const mine: TaskJson[] = [];
        for (let i = 0; i < each; i++) {
          mine.push(await row(skiff, ["add", "--task", `w${w} n${i}`]));
        }
        return mine;
      }),
    );
    console.log(`${workers} × ${each} adds took ${Math.round(performance.now() - started)} ms`);
    const all = added.flat();
    assertEquals(all.length, workers * each);
    assertEquals(new Set(all.map((r) => r.uid)).size, workers * each, "distinct uids");
    assertEquals(new Set(all.map((r) => r.id)).size, workers * each, "distinct ids");
    const listed = (await list(skiff)).rows;
    assertEquals(listed.map((r) => r.uid).sort(), all.map((r) => r.uid).sort());
    for (let w = 0; w < workers; w++) {
      const tasks = listed.filter((r) => r.task.startsWith(`w${w} `)).map((r) => r.task);
      assertEquals(tasks, Array.from({ length: each }, (_, i) => `w${w} n${i}`));
    }
  });
});
