/**
 * The ledger's stamp, which the app follows: it changes when a commit lands
 * (whether the `-wal` stays or is moved into the file), when the file comes,
 * goes or is made again; it stays the same while others only read, and
 * reading it touches nothing. And `writeProblem`: a read-only or locked
 * ledger, found without writing or waiting.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertNotEquals } from "../../helpers/assert.ts";
import { open, pane, snapshot, tempDir } from "../../helpers/ledger.ts";
import { canMakeReadOnly, makeReadOnly } from "../../helpers/read_only.ts";
import { isLockedError, ledgerStamp } from "../../../lib/ledger/mod.ts";

/** Reads as the app does: the rows, and whether a write could start. */
function read(dir: string): void {
  using reader = open(dir);
  reader.list({ all: true }, null);
  assertEquals(reader.writeProblem(), null);
}

function add(dir: string, task: string): void {
  using writer = open(dir);
  writer.add({ task, pane: pane("p1") });
}

Deno.test("the stamp changes with each commit, and not with reads", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  assertEquals(ledgerStamp(path), "none|none");
  assertEquals(snapshot(dir.path).size, 0, "reading a missing ledger's stamp makes nothing");

  open(dir.path).close();
  const made = ledgerStamp(path);
  assertNotEquals(made, "none|none");
  read(dir.path);
  assertEquals(ledgerStamp(path), made, "another connection only read");
  add(dir.path, "one");
  const added = ledgerStamp(path);
  assertNotEquals(added, made, "a commit whose -wal went into the file");

  // With another connection open, the -wal stays and grows with each commit.
  const keeper = new DatabaseSync(path);
  try {
    keeper.prepare("SELECT count(*) FROM tasks").get();
    const kept = ledgerStamp(path);
    read(dir.path);
    assertEquals(ledgerStamp(path), kept, "another connection only read");
    add(dir.path, "two");
    const grown = ledgerStamp(path);
    assertNotEquals(grown, kept, "a commit that stays in the -wal");
    add(dir.path, "three");
    assertNotEquals(ledgerStamp(path), grown);
  } finally {
    keeper.close();
  }

  for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(path + suffix).catch(() => {});
  assertEquals(ledgerStamp(path), "none|none");
  open(dir.path).close();
  assertNotEquals(ledgerStamp(path), "none|none", "a ledger made again");
});

Deno.test("reading the stamp of a file that is not a ledger leaves it byte for byte", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  await Deno.writeTextFile(path, "not a database\n".repeat(100));
  const before = snapshot(dir.path);
  assertEquals(ledgerStamp(path), ledgerStamp(path));
  assertEquals(snapshot(dir.path), before);
});

Deno.test("writeProblem says the ledger is locked while another connection holds its write lock, without waiting", async () => {
  await using dir = await tempDir();
  open(dir.path).close();
  using ledger = open(dir.path);
  assertEquals(ledger.writeProblem(), null);
  const holder = new DatabaseSync(join(dir.path, "ledger.db"));
  try {
    holder.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    const problem = ledger.writeProblem();
    assert(performance.now() - started < 1000, "it waited for the lock");
    assertEquals(problem?.message, `Ledger is locked by another process: ${ledger.path}`);
    assert(isLockedError(problem));
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  assertEquals(ledger.writeProblem(), null, "the lock went");
  add(dir.path, "after the lock");
});

Deno.test({
  name: "writeProblem says a read-only ledger is read-only; it still reads",
  ignore: !canMakeReadOnly(),
  fn: async () => {
    await using dir = await tempDir();
    const path = join(dir.path, "ledger.db");
    open(dir.path).close();
    const undo = makeReadOnly(path);
    try {
      using ledger = open(dir.path);
      assertEquals(ledger.list({ all: true }, null).entries, [], "it still reads");
      const problem = ledger.writeProblem();
      // With why, as every command says it (see tests/e2e/ledger_readonly.test.ts).
      assertEquals(problem?.message.startsWith("Ledger is read-only ("), true, problem?.message);
      assertEquals(problem?.message.endsWith(`): ${path}`), true, problem?.message);
      assertEquals(isLockedError(problem), false);
    } finally {
      undo();
    }
  },
});
