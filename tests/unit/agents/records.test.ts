import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { expandPattern, findRecord } from "../../../lib/agents/records.ts";

Deno.test("expandPattern: ~, ${VAR}, nested ${VAR:-default}, {id} and {id8}", () => {
  const env = { HOME: "/h", XDG_DATA_HOME: "/data", EMPTY: "" };
  assertEquals(
    expandPattern("~/.claude/{id}.jsonl", env, "abcdef123456"),
    "/h/.claude/abcdef123456.jsonl",
  );
  assertEquals(expandPattern("${CODEX_HOME:-~/.codex}/x", env, "i"), "/h/.codex/x");
  assertEquals(
    expandPattern("${CODEX_HOME:-~/.codex}/x", { ...env, CODEX_HOME: "/c" }, "i"),
    "/c/x",
  );
  assertEquals(
    expandPattern(
      "${OPENCODE_DB:-${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db}",
      env,
      "i",
    ),
    "/data/opencode/opencode.db",
  );
  assertEquals(
    expandPattern("${OPENCODE_DB:-${NOPE:-~/.local/share}/o.db}", env, "i"),
    "/h/.local/share/o.db",
  );
  assertEquals(
    expandPattern("${EMPTY:-fallback}/s-{id8}", env, "0123456789"),
    "fallback/s-01234567",
  );
});

Deno.test("findRecord: a payload's path, path patterns with * parts, a SQLite row; only safe ids", async () => {
  const root = await Deno.makeTempDir();
  try {
    const env = { HOME: root };
    const id = "01a23331-91b7-7fe2-88eb-7eb702019a38";
    const day = join(root, ".codex", "sessions", "2026", "12", "01");
    await Deno.mkdir(day, { recursive: true });
    await Deno.writeTextFile(join(day, `rollout-2026-12-01T20-00-16-${id}.jsonl`), "{}\n");
    const codex = { paths: ["${CODEX_HOME:-~/.codex}/sessions/*/*/*/rollout-*-{id}.jsonl"] };
    const hit = await findRecord(codex, { id, env });
    assertEquals(hit.found, join(day, `rollout-2026-12-01T20-00-16-${id}.jsonl`));
    const miss = await findRecord(codex, { id: "01a23331-0000-0000-0000-000000000000", env });
    assertEquals(miss.found, undefined);
    assertEquals(miss.looked, [
      `${root}/.codex/sessions/*/*/*/rollout-*-01a23331-0000-0000-0000-000000000000.jsonl`,
    ]);

    // A payload's path first; a path that is gone falls back to the patterns.
    const transcript = join(root, "t.jsonl");
    await Deno.writeTextFile(transcript, "");
    assertEquals(
      (await findRecord({ field: "x" }, { id: "s1", path: transcript, env })).found,
      transcript,
    );
    assertEquals(
      (await findRecord({ field: "x" }, { id: "s1", path: join(root, "gone"), env })).found,
      undefined,
    );

    const db = join(root, "opencode.db");
    const sqlite = new DatabaseSync(db);
    sqlite.exec(
      "CREATE TABLE session (id TEXT PRIMARY KEY); INSERT INTO session VALUES ('ses_abc')",
    );
    sqlite.close();
    const rule = { sqlite: { path: db, query: "SELECT 1 FROM session WHERE id = ?" } };
    assertEquals((await findRecord(rule, { id: "ses_abc", env })).found, db);
    assertEquals((await findRecord(rule, { id: "ses_other", env })).found, undefined);

    // A record whose first line must name the id: a file without that line is not one.
    const chats = join(root, ".gemini", "tmp", "work", "chats");
    await Deno.mkdir(chats, { recursive: true });
    const gemini = {
      paths: ["~/.gemini/tmp/*/chats/session-*-{id8}.jsonl"],
      header: "sessionId",
    };
    const whole = "9d1b6f0e-1111-4222-8333-444455556666";
    const headless = "5c7e2a10-1111-4222-8333-444455556666";
    const message = JSON.stringify({ type: "user", content: "remember" });
    await Deno.writeTextFile(
      join(chats, "session-2026-12-06T13-40-9d1b6f0e.jsonl"),
      `${JSON.stringify({ sessionId: whole, projectHash: "p" })}\n${message}\n`,
    );
    await Deno.writeTextFile(
      join(chats, "session-2026-12-06T13-40-5c7e2a10.jsonl"),
      `${message}\n`,
    );
    assertEquals(
      (await findRecord(gemini, { id: whole, env })).found,
      join(chats, "session-2026-12-06T13-40-9d1b6f0e.jsonl"),
    );
    const lost = await findRecord(gemini, { id: headless, env });
    assertEquals(lost.found, undefined);
    assertEquals(lost.looked, [
      `${root}/.gemini/tmp/*/chats/session-*-5c7e2a10.jsonl (its first line holding the id as sessionId)`,
    ]);
    // The same for a payload's path.
    const named = join(chats, "session-2026-12-06T13-40-5c7e2a10.jsonl");
    assertEquals((await findRecord(gemini, { id: headless, path: named, env })).found, undefined);
    assertEquals(
      (await findRecord({ header: "sessionId" }, {
        id: whole,
        path: join(chats, "session-2026-12-06T13-40-9d1b6f0e.jsonl"),
        env,
      })).found,
      join(chats, "session-2026-12-06T13-40-9d1b6f0e.jsonl"),
    );

    // Ids that could name other files are never looked for.
    for (const bad of ["../x", "a/b", "", "-rf", "a b"]) {
      const search = await findRecord(codex, { id: bad, env });
      assert(search.found === undefined && search.looked.length === 0, bad);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
