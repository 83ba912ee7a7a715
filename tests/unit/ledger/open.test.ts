import { assert, assertEquals } from "../../helpers/assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { LEDGER_VERSION, openLedger, rehearsalLedger } from "../../../lib/ledger/mod.ts";
import { open, pane, raw, snapshot, tempDir, throwsSkiff } from "../../helpers/ledger.ts";

/** Asserts that opening `dir`'s ledger fails with exit DATA and leaves every file as it was. */
function refusedUntouched(dir: string, why: RegExp): void {
  const before = snapshot(dir);
  throwsSkiff(() => open(dir), "DATA", why);
  throwsSkiff(() => open(dir), "DATA", why); // and again: the first try changed nothing
  const after = snapshot(dir);
  assertEquals([...after.keys()].sort(), [...before.keys()].sort(), "no file was added");
  for (const [name, bytes] of before) assertEquals(after.get(name), bytes, `${name} changed`);
}

Deno.test("first use makes the folder and a ledger of the current version in WAL mode", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "deep/er/ledger.db");
  const ledger = openLedger(path);
  assertEquals(ledger.path, path);
  assertEquals(ledger.folder, join(dir.path, "deep/er"));
  assertEquals([ledger.imported, ledger.migrated], [null, null]);
  ledger.add({ task: "x", pane: pane("p1") });
  ledger.close();
  ledger.close(); // a second close does nothing
  raw(path, (db) => {
    assertEquals(db.prepare("PRAGMA user_version").get()!.user_version, LEDGER_VERSION);
    assertEquals(db.prepare("PRAGMA journal_mode").get()!.journal_mode, "wal");
  });
});

Deno.test("a rehearsal ledger is empty and in memory, even when the file exists", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  {
    using missing = rehearsalLedger(path);
    missing.add({ task: "tried before the file is made" });
  }
  assert(!snapshot(dir.path).has("ledger.db"), "a rehearsal makes no file");
  // Another process made the ledger since: a rehearsal still adds nothing to it.
  const made = openLedger(path);
  made.add({ task: "the real row" });
  made.close();
  const before = Object.fromEntries(snapshot(dir.path));
  {
    using late = rehearsalLedger(path);
    assertEquals(late.list({ all: true }, null).entries, []);
    late.add({ task: "tried after the file was made" });
  }
  assertEquals(Object.fromEntries(snapshot(dir.path)), before, "the file is as it was");
  using real = openLedger(path);
  assertEquals(real.list({ all: true }, null).entries.map((e) => e.row.task), ["the real row"]);
});

Deno.test("a zero-byte file becomes a new ledger", async () => {
  await using dir = await tempDir();
  await Deno.writeFile(join(dir.path, "ledger.db"), new Uint8Array());
  using ledger = open(dir.path);
  assertEquals(ledger.add({ task: "x", pane: pane("p1") }).id, 1);
});

Deno.test("a file of random bytes is refused and left byte for byte", async () => {
  await using dir = await tempDir();
  const bytes = crypto.getRandomValues(new Uint8Array(8192));
  await Deno.writeFile(join(dir.path, "ledger.db"), bytes);
  refusedUntouched(dir.path, /is not a Skiff ledger: it is not a SQLite file/);
});

Deno.test("a short text file is refused and left alone", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "ledger.db"), "hello\n");
  refusedUntouched(dir.path, /not a SQLite file/);
});

Deno.test("a damaged file with a SQLite header is refused and left alone", async () => {
  await using dir = await tempDir();
  const bytes = crypto.getRandomValues(new Uint8Array(8192));
  bytes.set(new TextEncoder().encode("SQLite format 3\0"));
  await Deno.writeFile(join(dir.path, "ledger.db"), bytes);
  refusedUntouched(dir.path, /damaged or not a SQLite file/);
});

Deno.test("a SQLite database of another program is refused and left alone", async () => {
  await using dir = await tempDir();
  raw(join(dir.path, "ledger.db"), (db) => {
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    db.exec("INSERT INTO notes (body) VALUES ('mine')");
  });
  refusedUntouched(dir.path, /is not a Skiff ledger: it holds other tables \(notes\)/);
});

Deno.test("a foreign database in WAL mode is refused and its main file left alone", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  raw(path, (db) => {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE tasks (id INTEGER PRIMARY KEY, body TEXT)");
  });
  const before = await Deno.readFile(path);
  throwsSkiff(() => open(dir.path), "DATA", /not a Skiff ledger/);
  assertEquals(await Deno.readFile(path), before);
});

Deno.test("a database with a ledger's version but not its tables is refused", async () => {
  await using dir = await tempDir();
  raw(join(dir.path, "ledger.db"), (db) => {
    db.exec("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT); PRAGMA user_version = 2");
  });
  refusedUntouched(dir.path, /tasks table lacks/);
});

Deno.test("a version 2 ledger without used_uids is refused", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  open(dir.path).close();
  raw(path, (db) => db.exec("DROP TABLE used_uids; PRAGMA journal_mode = DELETE"));
  refusedUntouched(dir.path, /no used_uids table/);
});

Deno.test("a ledger from a newer Skiff is refused and left alone", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  open(dir.path).close();
  raw(
    path,
    (db) => db.exec(`PRAGMA user_version = ${LEDGER_VERSION + 1}; PRAGMA journal_mode = DELETE`),
  );
  refusedUntouched(
    dir.path,
    new RegExp(
      `is from a newer Skiff \\(schema ${
        LEDGER_VERSION + 1
      }; this Skiff reads up to ${LEDGER_VERSION}\\)`,
    ),
  );
});

Deno.test("a folder where the ledger should be is refused", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "ledger.db"));
  throwsSkiff(() => open(dir.path), "DATA", /is a folder/);
});

Deno.test("a ledger locked by another connection gives DATA after the timeout", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  open(dir.path).close();
  const holder = new DatabaseSync(path);
  holder.exec("BEGIN EXCLUSIVE");
  holder.exec("INSERT INTO used_uids (uid) VALUES ('00000000')");
  try {
    using ledger = open(dir.path, { timeout: 150 });
    // Reading still works in WAL mode; writing waits, then gives up.
    assertEquals(ledger.list({}, null).entries, []);
    const started = performance.now();
    const error = throwsSkiff(
      () => ledger.add({ task: "x", pane: pane("p1") }),
      "DATA",
      /^Ledger is locked by another process: /,
    );
    const waited = performance.now() - started;
    assert(waited >= 140, `gave up after ${waited} ms, before the timeout`);
    assert(waited < 5000, `waited ${waited} ms`);
    assertEquals(error.details.path, path);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  using ledger = open(dir.path);
  assertEquals(ledger.add({ task: "x", pane: pane("p1") }).id, 1, "the failed add left nothing");
});

/** Runs `ledgerPath` in a child process with this environment, in `cwd`. */
async function ledgerPathIn(env: Record<string, string>, cwd: string, folder?: string) {
  const mod = new URL("../../../lib/ledger/mod.ts", import.meta.url).href;
  const arg = folder === undefined ? "" : `{ folder: ${JSON.stringify(folder)} }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { ledgerPath } from "${mod}"; console.log(ledgerPath(${arg}));`],
    env,
    clearEnv: true,
    cwd,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert(out.success);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("ledgerPath: SKIFF_LEDGER wins, else ledger.db in the folder", async () => {
  await using dir = await tempDir();
  const home = join(dir.path, "home");
  const env = { HOME: home, PATH: Deno.env.get("PATH") ?? "" };
  assertEquals(await ledgerPathIn(env, dir.path), join(home, "skiff-agent/ledger.db"));
  assertEquals(await ledgerPathIn(env, dir.path, "/srv/agent"), "/srv/agent/ledger.db");
  assertEquals(await ledgerPathIn(env, dir.path, "~/agent"), join(home, "agent/ledger.db"));
  assertEquals(await ledgerPathIn(env, dir.path, "rel"), join(dir.path, "rel/ledger.db"));
  const set = { ...env, SKIFF_LEDGER: "/tmp/elsewhere/my.db" };
  assertEquals(await ledgerPathIn(set, dir.path, "/srv/agent"), "/tmp/elsewhere/my.db");
  const relative = { ...env, SKIFF_LEDGER: "sub/my.db" };
  assertEquals(await ledgerPathIn(relative, dir.path), join(dir.path, "sub/my.db"));
  const empty = { ...env, SKIFF_LEDGER: "" };
  assertEquals(await ledgerPathIn(empty, dir.path, "/srv/agent"), "/srv/agent/ledger.db");
});
