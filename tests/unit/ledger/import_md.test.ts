import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { join } from "node:path";
import { parseLedgerMd } from "../../../lib/ledger/mod.ts";
import { splitCells } from "../../../lib/ledger/import_md.ts";
import { open, raw, snapshot, tempDir, throwsSkiff } from "../../helpers/ledger.ts";

const FIXTURE = new URL("../../fixtures/ledger/ledger.md", import.meta.url);

Deno.test("ledger.md is imported on first use, keeping ids and order, then kept as .bak", async () => {
  await using dir = await tempDir();
  const md = join(dir.path, "ledger.md");
  const original = await Deno.readFile(FIXTURE);
  await Deno.writeFile(md, original);
  using ledger = open(dir.path);
  assertEquals(ledger.imported, { from: md, rows: 5, backup: `${md}.bak` });
  assertEquals(await Deno.readFile(`${md}.bak`), original);
  await assertRejects(() => Deno.stat(md), Deno.errors.NotFound);

  const list = ledger.list({ all: true }, null).entries;
  assertEquals(list.map((e) => e.row.id), [3, 9, 12]);
  const [release, fix, old] = list;
  assertEquals(release.tasks!.map((t) => t.row.id), [4, 5]);
  const [build, review] = release.tasks!.map((t) => t.row);
  assertEquals(release.row.kind, "plan");
  assertEquals(release.state, "sent", "task 5 is still pending");
  assertEquals(release.row.ref, "REL-2");
  assertEquals(
    release.row.result,
    join(dir.path, `results/2024-03-05-${release.row.uid}-release-2-0/plan.md`),
  );
  assertEquals(build.task, "Build the | pipe tool");
  assertEquals([build.pane, build.paneName, build.state], ["p2", "builder", "done"]);
  assertEquals(build.result, join(dir.path, "results/build.md"));
  assertEquals(build.parentUid, release.row.uid);
  assertEquals(review.task, "Review the build\nthen report");
  assertEquals(
    review.result,
    join(
      dir.path,
      `results/2024-03-05-${release.row.uid}-release-2-0/${review.uid}-review-the-build-then-report.md`,
    ),
  );
  assertEquals(review.ref, "https://example.test/pr/5");
  assertEquals(review.generation, null);
  assertEquals([fix.row.state, fix.row.pane, fix.row.paneName], ["blocked", "p1", null]);
  assertEquals(fix.row.result, "/srv/out/login.md");
  assertEquals(fix.row.ref, "a \\ b");
  assertEquals(fix.row.task, "Fix Café login 🚀");
  assertEquals([old.row.kind, old.state, old.tasks], ["plan", "done", []]);

  const uids = [release.row, build, review, fix.row, old.row].map((r) => r.uid);
  assertEquals(new Set(uids).size, 5);
  assertEquals(ledger.add({ task: "next", pane: { id: "p1" } }).id, 13);
  raw(join(dir.path, "ledger.db"), (db) => {
    assertEquals(db.prepare("SELECT count(*) AS n FROM used_uids").get()!.n, 6);
  });
});

Deno.test("the import happens once: a later open leaves a new ledger.md alone", async () => {
  await using dir = await tempDir();
  const md = join(dir.path, "ledger.md");
  open(dir.path).close();
  await Deno.copyFile(FIXTURE, md);
  using ledger = open(dir.path);
  assertEquals(ledger.imported, null);
  assertEquals(ledger.list({ all: true }, null).entries, []);
  assert((await Deno.stat(md)).isFile);
});

Deno.test("an existing ledger.md.bak is kept; the new backup gets a number", async () => {
  await using dir = await tempDir();
  const md = join(dir.path, "ledger.md");
  await Deno.writeTextFile(`${md}.bak`, "older backup");
  await Deno.copyFile(FIXTURE, md);
  using ledger = open(dir.path);
  assertEquals(ledger.imported?.backup, `${md}.bak.2`);
  assertEquals(await Deno.readTextFile(`${md}.bak`), "older backup");
});

Deno.test("an empty ledger.md imports nothing and is still kept as .bak", async () => {
  await using dir = await tempDir();
  const md = join(dir.path, "ledger.md");
  await Deno.writeTextFile(md, "\n  \n");
  using ledger = open(dir.path);
  assertEquals(ledger.imported, { from: md, rows: 0, backup: `${md}.bak` });
});

const HEAD = "| id | state | pane | task |\n|---|---|---|---|\n";

const MALFORMED: [string, string, number, RegExp][] = [
  ["no table", "# Ledger\n\nJust notes.\n", 1, /no task table/],
  [
    "unknown column",
    "| id | state | pane | task | owner |\n|-|-|-|-|-|\n",
    1,
    /unknown column 'owner'/,
  ],
  ["missing column", "| id | state | task |\n|-|-|-|\n", 1, /missing column pane/],
  ["twice", "| id | state | pane | task | task |\n|-|-|-|-|-|\n", 1, /'task' appears twice/],
  ["no delimiter", "| id | state | pane | task |\n| 1 | sent | p1 | x |\n", 2, /delimiter row/],
  ["bad id", `${HEAD}| one | sent | p1 | x |\n`, 3, /id 'one'/],
  ["zero id", `${HEAD}| 0 | sent | p1 | x |\n`, 3, /id '0'/],
  ["falling ids", `${HEAD}| 2 | sent | p1 | x |\n| 2 | sent | p1 | y |\n`, 4, /does not rise/],
  [
    "bad state",
    `${HEAD}| 1 | sent | p1 | x |\n| 2 | interrupted | p1 | y |\n`,
    4,
    /state 'interrupted'/,
  ],
  ["cells", `${HEAD}| 1 | sent | p1 | a | b |\n`, 3, /expected 4 cells, found 5/],
  ["empty task", `${HEAD}| 1 | sent | p1 |  |\n`, 3, /task is empty/],
  ["pane spaces", `${HEAD}| 1 | sent | my pane | x |\n`, 3, /has spaces/],
  ["text after", `${HEAD}| 1 | sent | p1 | x |\nNotes after.\n`, 4, /text after the table/],
  ["second table", `${HEAD}| 1 | sent | p1 | x |\n\n| 2 | sent | p1 | y |\n`, 5, /second table/],
  [
    "parent not a plan",
    "| id | parent | state | pane | task |\n|-|-|-|-|-|\n| 1 | | sent | p1 | x |\n| 2 | 1 | sent | p1 | y |\n",
    4,
    /parent 1 is not a plan/,
  ],
  [
    "parent below",
    "| id | parent | state | pane | task |\n|-|-|-|-|-|\n| 1 | 2 | sent | p1 | x |\n| 2 | | sent | | y |\n",
    3,
    /parent 2 is not a plan above/,
  ],
  [
    "nested plan",
    "| id | parent | state | pane | task |\n|-|-|-|-|-|\n| 1 | | sent | | x |\n| 2 | 1 | sent | | y |\n",
    4,
    /plan cannot be in another plan/,
  ],
];

for (const [name, text, line, why] of MALFORMED) {
  Deno.test(`a malformed ledger.md (${name}) names file:line and touches nothing`, async () => {
    await using dir = await tempDir();
    const md = join(dir.path, "ledger.md");
    await Deno.writeTextFile(md, text);
    const before = snapshot(dir.path);
    const error = throwsSkiff(() => open(dir.path), "DATA");
    assertMatch(error.message, new RegExp(`^Cannot import ${md}:${line}: `));
    assertMatch(error.message, why);
    assertEquals(error.details, { file: md, line });
    assertEquals(snapshot(dir.path), before, "no ledger.db, no .bak, ledger.md unchanged");
  });
}

Deno.test("a ledger.md that is not UTF-8 is refused and left alone", async () => {
  await using dir = await tempDir();
  await Deno.writeFile(join(dir.path, "ledger.md"), new Uint8Array([0x7c, 0xff, 0xfe, 0x7c]));
  const before = snapshot(dir.path);
  throwsSkiff(() => open(dir.path), "DATA", /not readable UTF-8/);
  assertEquals(snapshot(dir.path), before);
});

Deno.test("parseLedgerMd: columns in any order, names ignore case, optional pipes", () => {
  const rows = parseLedgerMd(
    "| Task | PANE | Pane Name | State | ID\n| - | - | - | - | -\n| x \\| y | p1 | web | DONE | 7\n",
    "f.md",
  );
  assertEquals(rows, [{
    line: 3,
    id: 7,
    parent: null,
    state: "done",
    pane: "p1",
    paneName: "web",
    task: "x | y",
    result: null,
    ref: null,
  }]);
  assertEquals(
    parseLedgerMd("\uFEFF| id | state | pane | task |\r\n|--|--|--|--|\r\n", "f.md"),
    [],
  );
});

Deno.test("splitCells: escapes and edges", () => {
  assertEquals(splitCells("| a | b |"), ["a", "b"]);
  assertEquals(splitCells("| a | b"), ["a", "b"]);
  assertEquals(splitCells("|a\\|b|c\\\\|"), ["a|b", "c\\"]);
  assertEquals(splitCells("| back\\slash |"), ["back\\slash"]);
  assertEquals(splitCells("|  |  |"), ["", ""]);
  assertEquals(splitCells("not a row"), null);
});
