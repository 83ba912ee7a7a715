import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { join } from "node:path";
import { open, raw, startTogether, tempDir } from "../../helpers/ledger.ts";

const SCRIPT = new URL("./concurrent_adder.ts", import.meta.url).pathname;

interface Report {
  name: string;
  added: { id: number; uid: string }[];
  imported: number | null;
}

/**
 * Starts `processes` adders on one ledger, waits until every one is ready,
 * releases them at the same moment, and returns their reports.
 */
async function runAdders(path: string, processes: number, count: number) {
  const { results, elapsed } = await startTogether(
    Array.from(
      { length: processes },
      (_, i) => ["run", "-A", SCRIPT, path, String(count), String(i)],
    ),
  );
  for (const r of results) {
    assertEquals(r.status.code, 0, `an adder failed: ${r.stderr}`);
    assertEquals(r.stderr, "", "an adder wrote to stderr");
  }
  const reports = results.map((r) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Report);
  return { reports, elapsed };
}

Deno.test("16 processes adding 100 tasks each to one fresh ledger lose nothing", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "fresh", "ledger.db");
  const { reports, elapsed } = await runAdders(path, 16, 100);
  console.log(`16 × 100 adds took ${Math.round(elapsed)} ms after the start signal`);
  const added = reports.flatMap((r) => r.added);
  assertEquals(added.length, 1600);
  assertEquals(new Set(added.map((a) => a.uid)).size, 1600);
  assertEquals(new Set(added.map((a) => a.id)).size, 1600);
  raw(path, (db) => {
    const count = (sql: string) => Number(db.prepare(sql).get()!.n);
    assertEquals(count("SELECT count(*) AS n FROM tasks"), 1600);
    assertEquals(count("SELECT count(DISTINCT uid) AS n FROM tasks"), 1600);
    assertEquals(count("SELECT count(*) AS n FROM used_uids"), 1600);
    assertEquals(count("SELECT max(id) AS n FROM tasks"), 1600);
    // Each process's own rows are all there, in the order it added them.
    for (const report of reports) {
      const tasks = db.prepare("SELECT task FROM tasks WHERE pane = ? ORDER BY id")
        .all(`p${report.name}`).map((r) => r.task);
      assertEquals(tasks, report.added.map((_, i) => `${report.name} task ${i}`));
    }
  });
});

Deno.test("processes that open a fresh ledger at once import ledger.md exactly once", async () => {
  await using dir = await tempDir();
  const md = join(dir.path, "ledger.md");
  await Deno.copyFile(new URL("../../fixtures/ledger/ledger.md", import.meta.url), md);
  const { reports } = await runAdders(join(dir.path, "ledger.db"), 8, 5);
  assertEquals(reports.filter((r) => r.imported !== null).map((r) => r.imported), [5]);
  await assertRejects(() => Deno.stat(md), Deno.errors.NotFound);
  assert((await Deno.stat(`${md}.bak`)).isFile);
  await assertRejects(() => Deno.stat(`${md}.bak.2`), Deno.errors.NotFound);
  using ledger = open(dir.path);
  const all = ledger.list({ all: true }, null).entries;
  const ids = all.flatMap((e) => [e.row.id, ...(e.tasks ?? []).map((t) => t.row.id)]);
  assertEquals(ids.length, 5 + 40);
  assertEquals(ids.slice(0, 5).sort((a, b) => a - b), [3, 4, 5, 9, 12]);
});

Deno.test("processes that open a version 1 ledger at once change it once", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  raw(path, (db) => {
    db.exec(`CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, parent_id INTEGER,
      pane TEXT, pane_name TEXT, generation INTEGER, state TEXT NOT NULL, task TEXT NOT NULL,
      result TEXT NOT NULL, ref TEXT, created_at TEXT, updated_at TEXT);
      PRAGMA user_version = 1;`);
    const insert = db.prepare("INSERT INTO tasks (pane, state, task, result) VALUES (?, ?, ?, ?)");
    for (let i = 0; i < 50; i++) insert.run("p1", "pending", `old ${i}`, `r${i}.md`);
  });
  const { reports } = await runAdders(path, 8, 10);
  assertEquals(reports.flatMap((r) => r.added).length, 80);
  raw(path, (db) => {
    assertEquals(Number(db.prepare("SELECT count(*) AS n FROM tasks").get()!.n), 130);
    assertEquals(Number(db.prepare("SELECT count(*) AS n FROM used_uids").get()!.n), 130);
    const old = db.prepare("SELECT id, task FROM tasks WHERE task LIKE 'old %' ORDER BY id").all();
    assertEquals(old.map((r) => [r.id, r.task]), old.map((_, i) => [i + 1, `old ${i}`]));
  });
});
