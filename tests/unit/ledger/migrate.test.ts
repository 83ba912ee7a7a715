import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { open, raw, snapshot, tempDir, throwsSkiff } from "../../helpers/ledger.ts";
import { LEDGER_VERSION } from "../../../lib/ledger/mod.ts";

/** The version 1 schema, written out here so the test does not lean on the code under test. */
const V1 = `
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT, parent_id INTEGER, pane TEXT, pane_name TEXT,
  generation INTEGER, state TEXT NOT NULL, task TEXT NOT NULL, result TEXT NOT NULL, ref TEXT,
  created_at TEXT, updated_at TEXT);
PRAGMA user_version = 1;`;

type V1Row = [
  number,
  number | null,
  string | null,
  string | null,
  number | null,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
];

const ROWS: V1Row[] = [
  [
    1,
    null,
    null,
    null,
    null,
    "sent",
    "Plan A",
    "results/2024-01-01-plan-a/plan.md",
    null,
    "2024-01-01T00:00:00.000Z",
    "2024-01-01T00:00:00.000Z",
  ],
  [
    2,
    1,
    "p1",
    "web",
    111,
    "sent",
    "Step 1",
    "results/2024-01-01-plan-a/step-1.md",
    "T-1",
    "2024-01-01T00:00:01.000Z",
    "2024-01-02T00:00:00.000Z",
  ],
  [
    4,
    1,
    "p2",
    "api",
    222,
    "done",
    "Step 2",
    "/abs/step-2.md",
    null,
    "2024-01-01T00:00:02.000Z",
    "2024-01-03T00:00:00.000Z",
  ],
  [5, null, "p3", null, null, "pending", "Lone | pipe", "results/lone.md", null, null, null],
  [
    7,
    null,
    "p1",
    "web",
    111,
    "blocked",
    "Blocked",
    "results/blocked.md",
    "https://x.test",
    "2024-01-04T00:00:00.000Z",
    "2024-01-04T00:00:00.000Z",
  ],
];

/** Writes a version 1 ledger: ids 1, 2, 4, 5, 7 remain, and ids up to 9 were given. */
function makeV1(path: string, rows: V1Row[] = ROWS): void {
  raw(path, (db: DatabaseSync) => {
    db.exec(V1);
    const insert = db.prepare("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const row of rows) insert.run(...row);
    insert.run(9, null, "p9", null, null, "done", "removed later", "r.md", null, null, null);
    db.exec("DELETE FROM tasks WHERE id = 9");
  });
}

Deno.test("a version 1 ledger becomes version 2: ids kept, fresh unique uids", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  makeV1(path);
  const ledger = open(dir.path);
  assertEquals(ledger.migrated, { from: 1, to: LEDGER_VERSION, rows: 5 });
  const rows = ledger.list({ all: true }, null).entries.flatMap((
    e,
  ) => [e.row, ...(e.tasks ?? []).map((t) => t.row)]);
  assertEquals(rows.map((r) => r.id), [1, 2, 4, 5, 7]);
  const uids = rows.map((r) => r.uid);
  assertEquals(new Set(uids).size, 5);
  for (const uid of uids) assertMatch(uid, /^[0-9a-f]{8}$/);
  const step1 = ledger.get("2");
  assertEquals(
    [step1.parentUid, step1.pane, step1.paneName, step1.generation, step1.state, step1.ref],
    [uids[0], "p1", "web", 111, "sent", "T-1"],
  );
  assertEquals(step1.result, join(dir.path, "results/2024-01-01-plan-a/step-1.md"));
  assertEquals(step1.createdAt, "2024-01-01T00:00:01.000Z");
  assertEquals(step1.updatedAt, "2024-01-02T00:00:00.000Z");
  assertEquals(ledger.get("4").result, "/abs/step-2.md");
  assertEquals(ledger.get("5").task, "Lone | pipe");
  assertEquals(ledger.get("5").createdAt, new Date(2024, 2, 5, 12).toISOString(), "missing time");
  assertEquals(ledger.get(uids[4]).id, 7);
  // Row ids never go back: 9 was given before the change.
  assertEquals(ledger.add({ task: "new", pane: { id: "p1" } }).id, 10);
  ledger.close();
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, LEDGER_VERSION);
    const used = db.prepare("SELECT uid FROM used_uids").all().map((r) => String(r.uid));
    assertEquals(used.length, 6);
    for (const uid of uids) assert(used.includes(uid));
    assertEquals(db.prepare("PRAGMA journal_mode").get()!.journal_mode, "wal");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all().map((r) => r.name);
    assertEquals(tables, ["sqlite_sequence", "tasks", "used_uids"]);
  });
  // A second open changes nothing.
  const again = open(dir.path);
  assertEquals(again.migrated, null);
  assertEquals(again.get("7").uid, uids[4]);
  again.close();
});

Deno.test("an empty version 1 ledger keeps its id counter", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  makeV1(path, []);
  using ledger = open(dir.path);
  assertEquals(ledger.migrated, { from: 1, to: LEDGER_VERSION, rows: 0 });
  assertEquals(ledger.add({ task: "x", pane: { id: "p1" } }).id, 10);
});

Deno.test("a failing change rolls back as one transaction: the file stays as it was", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  makeV1(path, [...ROWS, [
    8,
    null,
    "p1",
    null,
    null,
    "interrupted",
    "bad",
    "b.md",
    null,
    null,
    null,
  ]]);
  const before = snapshot(dir.path);
  throwsSkiff(() => open(dir.path), "DATA", /row 8 has the unknown state 'interrupted'/);
  assertEquals(snapshot(dir.path), before);
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, 1);
    assertEquals(db.prepare("SELECT count(*) AS n FROM tasks").get()!.n, 6);
  });
});

Deno.test("a locked version 1 ledger is not changed, and the error says it is locked", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  makeV1(path);
  const holder = new DatabaseSync(path);
  holder.exec("BEGIN EXCLUSIVE");
  try {
    throwsSkiff(() => open(dir.path, { timeout: 100 }), "DATA", /locked by another process/);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  raw(path, (db) => assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, 1));
  using ledger = open(dir.path);
  assertEquals(ledger.migrated?.rows, 5);
});

/** The version 2 schema, written out here so the test does not lean on the code under test. */
const V2 = `
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE CHECK (length(uid) = 8 AND uid NOT GLOB '*[^0-9a-f]*'),
  parent_id INTEGER, pane TEXT, pane_name TEXT, generation INTEGER,
  state TEXT NOT NULL CHECK (state IN ('sent', 'pending', 'blocked', 'done')),
  task TEXT NOT NULL, result TEXT NOT NULL, ref TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, sent_at TEXT, done_at TEXT);
CREATE INDEX tasks_parent ON tasks (parent_id);
CREATE TABLE used_uids (uid TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE task_notes (task_id INTEGER PRIMARY KEY, note TEXT NOT NULL, at TEXT NOT NULL);
PRAGMA user_version = 2;
INSERT INTO tasks VALUES
  (1, 'aaaaaaa1', NULL, NULL, NULL, NULL, 'sent', 'Plan', 'results/p/plan.md', 'T-9',
   '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', NULL, NULL),
  (2, 'aaaaaaa2', 1, 'p3', 'web', 1700, 'blocked', 'Step', 'results/p/a2-step.md', NULL,
   '2025-01-01T00:00:01.000Z', '2025-01-02T00:00:00.000Z', '2025-01-02T00:00:00.000Z', NULL),
  (5, 'aaaaaaa5', NULL, 'p4', 'api', 1800, 'done', 'Done task', '/abs/r.md', NULL,
   '2025-01-03T00:00:00.000Z', '2025-01-04T00:00:00.000Z', '2025-01-03T00:00:01.000Z',
   '2025-01-04T00:00:00.000Z');
INSERT INTO used_uids VALUES ('aaaaaaa1'), ('aaaaaaa2'), ('aaaaaaa3'), ('aaaaaaa5');
INSERT INTO task_notes VALUES (2, 'no turn started', '2025-01-02T00:00:00.000Z');
UPDATE sqlite_sequence SET seq = 7 WHERE name = 'tasks';
`;

Deno.test("a version 2 ledger becomes the current version: every row and field kept, branch and host empty", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  raw(path, (db) => db.exec(V2));
  const rowsBefore = () => {
    const out: unknown[] = [];
    raw(path, (db) => {
      for (const row of db.prepare("SELECT * FROM tasks ORDER BY id").all()) {
        const rest = { ...row as Record<string, unknown> };
        for (const column of ["branch", "host", ...V5_ADDED]) delete rest[column];
        out.push(rest);
      }
    });
    return out;
  };
  const before = rowsBefore();
  using ledger = open(dir.path);
  assertEquals(ledger.migrated, { from: 2, to: LEDGER_VERSION, rows: 3 });
  assertEquals(rowsBefore(), before, "every row keeps every field");
  assertEquals(ledger.get("2").note, "no turn started");
  assertEquals(ledger.get("2").branch, null);
  assertEquals(ledger.get("2").host, null);
  assertEquals(ledger.get("aaaaaaa5").state, "done");
  // Ids and uids keep their records: 7 was given, and aaaaaaa3 was used.
  const added = ledger.add({ task: "new", pane: { id: "p3" } });
  assertEquals(added.id, 8);
  assert(!["aaaaaaa1", "aaaaaaa2", "aaaaaaa3", "aaaaaaa5"].includes(added.uid));
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, LEDGER_VERSION);
    assertEquals(db.prepare("SELECT count(*) AS n FROM used_uids").get()!.n, 5);
  });
  const again = open(dir.path);
  assertEquals(again.migrated, null);
  again.close();
});

/** The columns version 5 adds, empty in every row a migration keeps. */
const V5_ADDED = ["worktree", "landed_into", "landed_from", "landed_to", "landed_at"];

Deno.test("a version 3 ledger becomes the current version: every row and field kept, host empty", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  raw(path, (db) =>
    db.exec(`${V2}\nALTER TABLE tasks ADD COLUMN branch TEXT;
    UPDATE tasks SET branch = 'skiff/fix' WHERE id = 2; PRAGMA user_version = 3;`));
  const rowsOf = (drop: string[]) => {
    const out: unknown[] = [];
    raw(path, (db) => {
      for (const row of db.prepare("SELECT * FROM tasks ORDER BY id").all()) {
        const rest = { ...row as Record<string, unknown> };
        for (const column of drop) delete rest[column];
        out.push(rest);
      }
    });
    return out;
  };
  const before = rowsOf([]);
  using ledger = open(dir.path);
  assertEquals(ledger.migrated, { from: 3, to: LEDGER_VERSION, rows: 3 });
  assertEquals(rowsOf(["host", ...V5_ADDED]), before, "every row keeps every field");
  assertEquals([ledger.get("2").branch, ledger.get("2").host], ["skiff/fix", null]);
  const remote = ledger.add({ task: "far", pane: { id: "p1", host: "gpu1" } });
  assertEquals([remote.pane, remote.host], ["p1", "gpu1"]);
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, LEDGER_VERSION);
    assertEquals(db.prepare("SELECT host FROM tasks WHERE id = ?").get(remote.id)!.host, "gpu1");
  });
});

Deno.test("a version 4 ledger becomes version 5 in one transaction: every row kept, worktree and landing empty", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  raw(path, (db) =>
    db.exec(`${V2}
ALTER TABLE tasks ADD COLUMN branch TEXT; ALTER TABLE tasks ADD COLUMN host TEXT;
    UPDATE tasks SET branch = 'skiff/fix' WHERE id = 2; PRAGMA user_version = 4;`));
  const rowsOf = (drop: string[]) => {
    const out: unknown[] = [];
    raw(path, (db) => {
      for (const row of db.prepare("SELECT * FROM tasks ORDER BY id").all()) {
        const rest = { ...row as Record<string, unknown> };
        for (const column of drop) delete rest[column];
        out.push(rest);
      }
    });
    return out;
  };
  const before = rowsOf([]);
  using ledger = open(dir.path);
  assertEquals(ledger.migrated, { from: 4, to: 5, rows: 3 });
  assertEquals(rowsOf(V5_ADDED), before, "every row keeps every field");
  const step = ledger.get("2");
  assertEquals([step.branch, step.worktree, step.landed], ["skiff/fix", null, null]);
  assertEquals(ledger.get("aaaaaaa5").state, "done");
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, 5);
    const columns = db.prepare("PRAGMA table_info(tasks)").all().map((c) => String(c.name));
    for (const column of V5_ADDED) assert(columns.includes(column), column);
  });
  // An older row of a pane and branch is found by them, since its send kept no worktree id.
  assertEquals(
    ledger.tasksOn({ host: null, worktree: "w1", branch: "skiff/fix", panes: ["p3"] }).length,
    0,
    "a blocked task never went to an agent, so it did not land",
  );
});
