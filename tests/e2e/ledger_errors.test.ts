/**
 * End-to-end tests of the ledger file under stress: a damaged, foreign or
 * newer ledger.db, a locked ledger, and many concurrent writers.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "../helpers/assert.ts";
import { agentDir, fails, failsJson, files, holdLock, list, row, uids } from "../helpers/ledger.ts";
import { withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";

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

Deno.test("a ledger another program holds locked past the busy timeout: writers get one line and exit 6, readers still read, nothing changes", async () => {
  await withSkiff(async (skiff) => {
    const plan = await row(skiff, ["add", "--task", "Before the lock"]);
    const path = join(agentDir(skiff), "ledger.db");
    const bytes = await Deno.readFile(path);
    {
      await using _holder = await holdLock(path, "write");
      assertEquals(uids((await list(skiff)).rows), [plan.uid]);
      const started = Date.now();
      // Two writers wait out the busy timeout at the same time.
      await Promise.all([
        fails(
          skiff,
          ["ledger", "add", "--task", "x"],
          6,
          /^skiff: Ledger is locked by another process: /,
        ),
        fails(skiff, ["ledger", "done", plan.uid], 6, /locked by another process/),
      ]);
      assert(Date.now() - started >= 9_000, "they waited for the lock first");
      assertEquals(await Deno.readFile(path), bytes, "the file is byte for byte");
    }
    await row(skiff, ["add", "--task", "After the lock"]);
  });
});

Deno.test("a ledger another program holds in exclusive mode: readers and writers each get one line and exit 6", async () => {
  await withSkiff(async (skiff) => {
    const plan = await row(skiff, ["add", "--task", "Before the lock"]);
    const path = join(agentDir(skiff), "ledger.db");
    const bytes = await Deno.readFile(path);
    {
      await using _holder = await holdLock(path, "exclusive");
      const [ls, show, add, json] = await Promise.all([
        fails(skiff, ["ledger", "ls"], 6, /locked by another process/),
        fails(skiff, ["ledger", "show", plan.uid], 6, /locked by another process/),
        fails(skiff, ["ledger", "add", "--task", "x"], 6, /locked by another process/),
        failsJson(skiff, ["ledger", "ls"], 6),
      ]);
      for (const result of [ls, show, add]) assert(!/Internal/.test(result.stderr));
      assertEquals([json.code, json.path], ["data", path]);
      assertEquals(await Deno.readFile(path), bytes, "the file is byte for byte");
    }
    assertEquals(uids((await list(skiff)).rows), [plan.uid]);
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
