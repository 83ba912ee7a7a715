/**
 * The branch on ledger rows: a task sent to a pane in a worktree stores the
 * branch the worktree is on at the send, `ledger show` and `ledger ls
 * --json` print it; a pane without a worktree stores none; a version 2
 * ledger changes to the current version on first use, keeping every row.
 *
 * @module
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { addProject, defaultWorktreePath, git, makeRepo } from "../helpers/git.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";
import { LEDGER_VERSION } from "../../lib/ledger/schema.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

function ledgerFile(skiff: SkiffEnv): string {
  return join(skiff.root, "agent", "ledger.db");
}

async function send(skiff: SkiffEnv, pane: string, task: string): Promise<TaskJson> {
  const out = await skiff.json<{ row: TaskJson; exit: number }>([
    "ledger",
    "add",
    "--pane",
    pane,
    "--task",
    task,
    "--send",
    "--enter",
  ]);
  assertEquals(out.exit, 0);
  await skiff.ok(["wait", pane, "--until", "idle", "--timeout", "30"]);
  return out.row;
}

Deno.test("ledger: the pane's branch is stored with each task at send; show and ls --json print it", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.SKIFF_LEDGER = ledgerFile(skiff);
    await useFakeAgent(skiff);
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "fix", "--agent", "fake"]);
    await skiff.ok(["new", "--name", "plain", "--agent", "fake"]);
    for (const pane of ["fix", "plain"]) {
      await skiff.ok(["wait", pane, "--until", "idle", "--timeout", "30"]);
    }
    // A pending task has no branch yet: it is stored at the send.
    const pending = await skiff.json<{ row: TaskJson }>([
      "ledger",
      "add",
      "--pane",
      "fix",
      "--task",
      "later",
    ]);
    assertEquals(pending.row.branch, null);

    const first = await send(skiff, "fix", "Fix the login");
    assertEquals(first.branch, "skiff/fix");
    const plain = await send(skiff, "plain", "No worktree here");
    assertEquals(plain.branch, null);

    // The worktree moves to another branch; the next send stores that one.
    git(defaultWorktreePath(skiff, "demo", "fix"), "checkout", "-q", "-b", "fix-v2");
    await skiff.ok(["send", "fix", "look again", "--enter"]);
    await waitFor("the pane's new branch", async () => {
      const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
      return panes.find((p) => p.name === "fix")?.worktree?.branch === "fix-v2";
    }, { timeout: 20_000 });
    await skiff.ok(["wait", "fix", "--until", "idle", "--timeout", "30"]);
    const second = await send(skiff, "fix", "Fix it again");
    assertEquals(second.branch, "fix-v2");
    const sentLater = await skiff.json<{ row: TaskJson; exit: number }>([
      "ledger",
      "send",
      pending.row.uid,
      "--enter",
    ]);
    assertEquals([sentLater.exit, sentLater.row.branch], [0, "fix-v2"]);

    const { rows } = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls", "--all"]);
    assertEquals(
      rows.map((r) => [r.task, r.branch]),
      [
        ["later", "fix-v2"],
        ["Fix the login", "skiff/fix"],
        ["No worktree here", null],
        ["Fix it again", "fix-v2"],
      ],
    );
    const shown = await skiff.ok(["ledger", "show", first.uid]);
    assertMatch(
      shown,
      /^pane: +p1 \(fix\), generation \d+\nbranch: +skiff\/fix\ntask: +Fix the login$/m,
    );
    assertMatch(await skiff.ok(["ledger", "show", plain.uid]), /^branch: +-$/m);
    const json = await skiff.json<{ row: TaskJson }>(["ledger", "show", first.uid]);
    assertEquals(json.row.branch, "skiff/fix");
  });
});

Deno.test("ledger: a version 2 ledger changes to the current version on first use, every row kept", async () => {
  await withSkiff(async (skiff) => {
    const path = ledgerFile(skiff);
    skiff.env.SKIFF_LEDGER = path;
    await Deno.mkdir(join(skiff.root, "agent"));
    const db = new DatabaseSync(path);
    db.exec(`
      CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE,
        parent_id INTEGER, pane TEXT, pane_name TEXT, generation INTEGER, state TEXT NOT NULL,
        task TEXT NOT NULL, result TEXT NOT NULL, ref TEXT, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, sent_at TEXT, done_at TEXT);
      CREATE TABLE used_uids (uid TEXT PRIMARY KEY) WITHOUT ROWID;
      PRAGMA user_version = 2;
      INSERT INTO tasks VALUES (3, '0123abcd', NULL, 'p9', 'old', 5, 'sent', 'Old task',
        'results/old.md', 'T-1', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z',
        '2025-01-01T00:00:00.000Z', NULL);
      INSERT INTO used_uids VALUES ('0123abcd');`);
    db.close();
    const { rows } = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls"]);
    assertEquals(rows.map((r) => [r.id, r.uid, r.stored_state, r.task, r.ref, r.branch]), [
      [3, "0123abcd", "sent", "Old task", "T-1", null],
    ]);
    const after = new DatabaseSync(path, { readOnly: true });
    try {
      assertEquals(after.prepare("PRAGMA user_version").get()!.user_version, LEDGER_VERSION);
    } finally {
      after.close();
    }
  });
});
