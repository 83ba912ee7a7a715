import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { join } from "node:path";
import { parseRef } from "../../../lib/ledger/mod.ts";
import { open, pane, raw, tempDir, throwsSkiff } from "../../helpers/ledger.ts";

/** Makes `crypto.getRandomValues` hand out these uids first, then real random ones. */
function rigUids(uids: string[]): Disposable {
  const original = crypto.getRandomValues.bind(crypto);
  const queue = [...uids];
  const rigged = (array: Uint8Array): Uint8Array => {
    const next = queue.shift();
    if (next === undefined || array.length !== 4) return original(array);
    array.set(next.match(/../g)!.map((h) => parseInt(h, 16)));
    return array;
  };
  crypto.getRandomValues = rigged as unknown as typeof crypto.getRandomValues;
  return { [Symbol.dispose]: () => void (crypto.getRandomValues = original) };
}

Deno.test("a removed row's uid and id are never given again, also after reopening", async () => {
  await using dir = await tempDir();
  let ledger = open(dir.path);
  const first = ledger.add({ task: "one", pane: pane("p1") });
  const second = ledger.add({ task: "two", pane: pane("p1") });
  assertEquals(ledger.remove(second.uid).map((r) => r.uid), [second.uid]);
  {
    // The random source offers the removed uid first: it must be skipped.
    using _rig = rigUids([second.uid, first.uid, "0badcafe"]);
    const third = ledger.add({ task: "three", pane: pane("p1") });
    assertEquals(third.uid, "0badcafe");
    assertEquals(third.id, 3);
  }
  ledger.remove("3");
  ledger.close();
  ledger = open(dir.path);
  {
    using _rig = rigUids(["0badcafe", second.uid, "0badf00d"]);
    const fourth = ledger.add({ task: "four", pane: pane("p1") });
    assertEquals(fourth.uid, "0badf00d");
    assertEquals(fourth.id, 4);
  }
  ledger.close();
  const used = raw(
    join(dir.path, "ledger.db"),
    (db) => db.prepare("SELECT uid FROM used_uids ORDER BY uid").all().map((r) => r.uid),
  );
  assertEquals(used, [first.uid, second.uid, "0badcafe", "0badf00d"].sort());
});

Deno.test("uids are 8 lowercase hex characters and distinct", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const uids = new Set<string>();
  for (let i = 0; i < 200; i++) uids.add(ledger.add({ task: `t${i}`, pane: pane("p1") }).uid);
  assertEquals(uids.size, 200);
  for (const uid of uids) assertMatch(uid, /^[0-9a-f]{8}$/);
});

Deno.test("a ref is a row id, a full uid or a uid prefix of 4 or more characters", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  using _rig = rigUids(["abcdef01", "fedcba98"]);
  const a = ledger.add({ task: "a", pane: pane("p1") });
  const b = ledger.add({ task: "b", pane: pane("p1") });
  assertEquals(ledger.resolve("1"), a.id);
  assertEquals(ledger.resolve("2"), b.id);
  assertEquals(ledger.resolve("abcdef01"), a.id);
  assertEquals(ledger.resolve("ABCDEF01"), a.id, "case does not matter");
  assertEquals(ledger.resolve(" abcd "), a.id, "spaces around do not matter");
  assertEquals(ledger.resolve("fedc"), b.id);
  assertEquals(ledger.get("fedcba").task, "b");
  throwsSkiff(() => ledger.resolve("abc"), "USAGE", /too short/);
  throwsSkiff(() => ledger.resolve("xyz1"), "USAGE", /not a task ID or uid/);
  throwsSkiff(() => ledger.resolve(""), "USAGE", /empty/);
  throwsSkiff(() => ledger.resolve("abcdef012"), "USAGE");
});

Deno.test("an unknown ref is NOT_FOUND, also for a removed row", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const row = ledger.add({ task: "a", pane: pane("p1") });
  throwsSkiff(() => ledger.get("99"), "NOT_FOUND", /No task with ID or uid '99'/);
  throwsSkiff(() => ledger.get("0000"), "NOT_FOUND");
  ledger.remove(row.uid);
  throwsSkiff(() => ledger.get(row.uid), "NOT_FOUND");
  throwsSkiff(() => ledger.get(String(row.id)), "NOT_FOUND");
  throwsSkiff(() => ledger.update(row.uid, { state: "done" }), "NOT_FOUND");
  throwsSkiff(() => ledger.remove(row.uid), "NOT_FOUND");
});

Deno.test("a prefix that starts several uids is ambiguous and lists them", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  using _rig = rigUids(["abcd0001", "abcd0002", "abce0003"]);
  ledger.add({ task: "a", pane: pane("p1") });
  ledger.add({ task: "b", pane: pane("p1") });
  ledger.add({ task: "c", pane: pane("p1") });
  const error = throwsSkiff(() => ledger.get("abcd"), "USAGE", /ambiguous/);
  assertMatch(error.message, /abcd0001 \(ID 1\), abcd0002 \(ID 2\)/);
  assertEquals(error.details.candidates, [{ id: 1, uid: "abcd0001" }, {
    id: 2,
    uid: "abcd0002",
  }]);
  assertEquals(ledger.resolve("abcd0001"), 1);
  throwsSkiff(() => ledger.get("abcd0"), "USAGE", /ambiguous/);
  assertEquals(ledger.resolve("abce"), 3);
});

Deno.test("digits that are both a row id and a uid prefix are ambiguous", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  open(dir.path).close();
  raw(path, (db) => db.exec("INSERT INTO sqlite_sequence (name, seq) VALUES ('tasks', 1233)"));
  using ledger = open(dir.path);
  using _rig = rigUids(["1234abcd", "99999999"]);
  const byUid = ledger.add({ task: "uid 1234abcd", pane: pane("p1") });
  const byId = ledger.add({ task: "row 1235", pane: pane("p1") });
  assertEquals([byUid.id, byId.id], [1234, 1235]);
  assertEquals(ledger.resolve("1235"), 1235, "an id alone is not ambiguous");
  // "1234" is row 1234 and also the start of uid 1234abcd, which is the same row.
  assertEquals(ledger.resolve("1234"), 1234);
  ledger.update("1234", { task: "moved" });
  // Now make "1235" start a uid of another row.
  raw(path, (db) => db.exec("UPDATE tasks SET uid = '1235beef' WHERE id = 1234"));
  const error = throwsSkiff(() => ledger.resolve("1235"), "USAGE", /ambiguous/);
  assertMatch(error.message, /1235beef \(ID 1234\)/);
  assertMatch(error.message, /99999999 \(ID 1235\)/);
  assertEquals(ledger.resolve("1235beef"), 1234);
  assertEquals(ledger.resolve("99999999"), 1235);
});

Deno.test("parseRef says what a ref can mean", () => {
  assertEquals(parseRef("12"), { text: "12", id: 12, prefix: null });
  assertEquals(parseRef("1234"), { text: "1234", id: 1234, prefix: "1234" });
  assertEquals(parseRef("3F2A"), { text: "3f2a", id: null, prefix: "3f2a" });
  assertEquals(parseRef("3f2a9c1b"), { text: "3f2a9c1b", id: null, prefix: "3f2a9c1b" });
  throwsSkiff(() => parseRef("3f2a9c1b0"), "USAGE");
  throwsSkiff(() => parseRef("p3"), "USAGE");
});
