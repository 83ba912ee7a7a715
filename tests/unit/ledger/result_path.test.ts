import { assert, assertEquals } from "../../helpers/assert.ts";
import { join } from "node:path";
import { localDate, resultPathFor, slugify } from "../../../lib/ledger/mod.ts";
import { NOON, open, pane, raw, tempDir } from "../../helpers/ledger.ts";

Deno.test("slug: lowercase ASCII words joined by -", () => {
  assertEquals(slugify("Fix the Login bug"), "fix-the-login-bug");
  assertEquals(slugify("  Review   PR #42: auth/login (v2)!  "), "review-pr-42-auth-login-v2");
  assertEquals(slugify("snake_case and kebab-case"), "snake-case-and-kebab-case");
  assertEquals(slugify("don't stop"), "don-t-stop");
  assertEquals(slugify("line one\nline two\ttab"), "line-one-line-two-tab");
});

Deno.test("slug: accents are dropped, letters kept", () => {
  assertEquals(slugify("Café déjà vu"), "cafe-deja-vu");
  assertEquals(slugify("Ærøskøbing straße Łódź"), "aeroskobing-strasse-lodz");
  assertEquals(slugify("ﬁle Ⅻ ①"), "file-xii-1", "NFKD spells out compatibility forms");
  assertEquals(slugify("Zürich naïve façade"), "zurich-naive-facade");
});

Deno.test("slug: emoji and other scripts separate words or vanish", () => {
  assertEquals(slugify("ship🚀now"), "ship-now");
  assertEquals(slugify("🚀 Launch 🎉 party"), "launch-party");
  assertEquals(slugify("日本語のタスク"), "task");
  assertEquals(slugify("Тест test"), "test");
});

Deno.test("slug: empty or symbol-only text gives task", () => {
  assertEquals(slugify(""), "task");
  assertEquals(slugify("   "), "task");
  assertEquals(slugify("!!! ??? ---"), "task");
  assertEquals(slugify("🎉🎉"), "task");
});

Deno.test("slug: at most 40 characters, cut on a word boundary", () => {
  const long = "Refactor the authentication middleware so that expired sessions are refreshed";
  const slug = slugify(long);
  assertEquals(slug, "refactor-the-authentication-middleware");
  assert(slug.length <= 40);
  // Exactly 40 is kept whole.
  const forty = "abcdefghij abcdefghij abcdefghij abcdefg"; // 10+1+10+1+10+1+7 = 40
  assertEquals(slugify(forty).length, 40);
  assertEquals(slugify(forty + " x"), "abcdefghij-abcdefghij-abcdefghij-abcdefg");
  // One word longer than the limit is cut at the limit.
  assertEquals(slugify("a".repeat(100)), "a".repeat(40));
  assertEquals(slugify(`${"b".repeat(45)} tail`), "b".repeat(40));
  // Very long text stays bounded and never ends with "-".
  const huge = slugify("word ".repeat(10_000));
  assert(huge.length <= 40 && !huge.endsWith("-") && !huge.startsWith("-"));
});

Deno.test("date: local calendar date as YYYY-MM-DD", () => {
  assertEquals(localDate(new Date(2024, 0, 5, 0, 0, 1)), "2024-01-05");
  assertEquals(localDate(new Date(2024, 11, 31, 23, 59, 59)), "2024-12-31");
  assertEquals(localDate(new Date(987, 6, 4, 12)), "0987-07-04");
});

Deno.test("date: follows the local time zone, not UTC", async () => {
  // 20:00 UTC on 1 March is already 2 March in Kiritimati (UTC+14) and still
  // 1 March in Los Angeles.
  const code = `import { localDate } from ${
    JSON.stringify(
      new URL("../../../lib/ledger/result_path.ts", import.meta.url).href,
    )
  }; console.log(localDate(new Date("2024-03-01T20:00:00Z")));`;
  const run = async (tz: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: { TZ: tz },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert(out.success);
    return new TextDecoder().decode(out.stdout).trim();
  };
  assertEquals(await run("Pacific/Kiritimati"), "2024-03-02");
  assertEquals(await run("Pacific/Honolulu"), "2024-03-01");
});

Deno.test("resultPathFor: the three kinds of rows", () => {
  const now = NOON;
  assertEquals(
    resultPathFor({ uid: "3f2a9c1b", task: "Fix it", plan: false, now }),
    "results/2024-03-05-3f2a9c1b-fix-it.md",
  );
  assertEquals(
    resultPathFor({ uid: "7c2e91ab", task: "Big plan", plan: true, now }),
    "results/2024-03-05-7c2e91ab-big-plan/plan.md",
  );
  assertEquals(
    resultPathFor({
      uid: "0a0b0c0d",
      task: "Step one",
      plan: false,
      parentResult: "results/2024-01-01-7c2e91ab-big-plan/plan.md",
      now,
    }),
    "results/2024-01-01-7c2e91ab-big-plan/0a0b0c0d-step-one.md",
  );
});

Deno.test("add computes absolute paths, stores them relative, and makes no file", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const task = ledger.add({ task: "Café déjà vu", pane: pane("p1") });
  const plan = ledger.add({ task: "Release 2.0: the plan" });
  const step = ledger.add({ task: "Write notes!", pane: pane("p2"), parent: plan.uid });
  assertEquals(task.result, join(dir.path, `results/2024-03-05-${task.uid}-cafe-deja-vu.md`));
  assertEquals(
    plan.result,
    join(dir.path, `results/2024-03-05-${plan.uid}-release-2-0-the-plan/plan.md`),
  );
  assertEquals(
    step.result,
    join(
      dir.path,
      `results/2024-03-05-${plan.uid}-release-2-0-the-plan/${step.uid}-write-notes.md`,
    ),
  );
  const stored = raw(
    join(dir.path, "ledger.db"),
    (db) => db.prepare("SELECT result FROM tasks ORDER BY id").all().map((r) => r.result),
  );
  assertEquals(stored, [
    `results/2024-03-05-${task.uid}-cafe-deja-vu.md`,
    `results/2024-03-05-${plan.uid}-release-2-0-the-plan/plan.md`,
    `results/2024-03-05-${plan.uid}-release-2-0-the-plan/${step.uid}-write-notes.md`,
  ]);
  const names = [...Deno.readDirSync(dir.path)].map((e) => e.name);
  assert(!names.includes("results"), `add made a file or folder: ${names}`);
  assert(names.every((n) => n.startsWith("ledger.db")), `unexpected files: ${names}`);
});

Deno.test("a computed path follows the ledger when its folder moves", async () => {
  await using dir = await tempDir();
  const first = join(dir.path, "a");
  const moved = join(dir.path, "b");
  let ledger = open(first);
  const uid = ledger.add({ task: "Move me", pane: pane("p1") }).uid;
  ledger.close();
  await Deno.rename(first, moved);
  ledger = open(moved);
  assertEquals(ledger.get(uid).result, join(moved, `results/2024-03-05-${uid}-move-me.md`));
  ledger.close();
});

Deno.test("a caller's result path is stored absolute; a task in its plan goes beside it", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path, { cwd: join(dir.path, "work") });
  const rel = ledger.add({ task: "x", pane: pane("p1"), result: "out/x.md" });
  assertEquals(rel.result, join(dir.path, "work/out/x.md"));
  const abs = ledger.add({ task: "y", pane: pane("p1"), result: "/srv/notes/y.md" });
  assertEquals(abs.result, "/srv/notes/y.md");
  const plan = ledger.add({ task: "p", result: "/srv/plans/alpha/index.md" });
  const inPlan = ledger.add({ task: "Step A", pane: pane("p1"), parent: plan.uid });
  assertEquals(inPlan.result, `/srv/plans/alpha/${inPlan.uid}-step-a.md`);
  const stored = raw(
    join(dir.path, "ledger.db"),
    (db) => db.prepare("SELECT result FROM tasks ORDER BY id").all().map((r) => r.result),
  );
  assertEquals(stored, [
    join(dir.path, "work/out/x.md"),
    "/srv/notes/y.md",
    "/srv/plans/alpha/index.md",
    `/srv/plans/alpha/${inPlan.uid}-step-a.md`,
  ]);
  const updated = ledger.update(rel.uid, { result: "../elsewhere.md" });
  assertEquals(updated.result, join(dir.path, "elsewhere.md"));
});

Deno.test("remove deletes no result file", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const row = ledger.add({ task: "Keep my file", pane: pane("p1") });
  await Deno.mkdir(join(dir.path, "results"));
  await Deno.writeTextFile(row.result, "the result");
  ledger.remove(row.uid);
  assertEquals(await Deno.readTextFile(row.result), "the result");
});
