/**
 * The records of the worktrees Skiff made: saved whole after each change,
 * ids never given twice, an unreadable file set aside (never deleted), a
 * failed save changing nothing, and names found with or without a project.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { type NewRecord, WorktreeStore } from "../../../lib/worktree/records.ts";

function fields(project: string, name: string): NewRecord {
  return {
    project,
    name,
    branch: `skiff/${name}`,
    branch_created: true,
    base: "main",
    base_commit: "0".repeat(40),
    repo: "/repo",
    subdir: "",
    path: `/worktrees/${project}/${name}`,
    pane: null,
    created: "2026-01-01T00:00:00.000Z",
  };
}

Deno.test("worktree records: saved after each change, ids never reused, names found", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skiff-records-" });
  try {
    const file = join(dir, "state", "skiffd.worktrees.json");
    const store = new WorktreeStore(file);
    const a = store.add(fields("api", "login"));
    const b = store.add(fields("web", "login"));
    store.setPane(a.id, "p3");
    store.remove(b.id);
    const again = new WorktreeStore(file);
    assertEquals(again.all.map((r) => [r.id, r.project, r.name, r.pane]), [[
      "w1",
      "api",
      "login",
      "p3",
    ]]);
    assertEquals(again.add(fields("web", "other")).id, "w3", "w2 is never given again");
    assertEquals(again.find("api/login").id, "w1");
    assertEquals(again.find("login").id, "w1");
    again.add(fields("web", "login"));
    assertMatch(
      assertThrows(() => again.find("login")).message,
      /in several projects: name one of api\/login, web\/login/,
    );
    assertMatch(assertThrows(() => again.find("nope")).message, /No worktree 'nope'/);
    assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("worktree records: an unreadable file is kept aside; a failed save changes nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skiff-records-" });
  try {
    const file = join(dir, "skiffd.worktrees.json");
    await Deno.writeTextFile(file, "{ not json");
    const logged: string[] = [];
    const store = new WorktreeStore(file, { log: (line) => logged.push(line) });
    assertEquals(store.all, []);
    const aside = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      n.includes("unreadable")
    );
    assertEquals(aside.length, 1);
    assertEquals(await Deno.readTextFile(join(dir, aside[0])), "{ not json");
    assertMatch(logged[0], /unreadable; kept them as/);

    store.add(fields("api", "one"));
    // A folder where the file should be: every save fails.
    await Deno.remove(file);
    await Deno.mkdir(file);
    const error = assertThrows(() => store.add(fields("api", "two")));
    assertMatch(error.message, /Cannot save the worktree records/);
    assertEquals(store.all.map((r) => r.name), ["one"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
