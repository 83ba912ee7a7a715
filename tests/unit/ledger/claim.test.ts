/**
 * Tests of the send claims in `lib/ledger/claim.ts` (`Ledger.claimForSend`
 * and `Ledger.finishSend`), with two or more processes claiming at once.
 * They use the library directly, as the future `skiff ledger send` will.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../../../lib/errors.ts";
import { type Ledger, LEDGER_VERSION, openLedger } from "../../../lib/ledger/mod.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { NOON, startTogether, tempDir } from "../../helpers/ledger.ts";

const T0 = NOON;

function open(dir: string, now: () => Date = () => T0): Ledger {
  return openLedger(join(dir, "ledger.db"), { now, cwd: dir });
}

function throwsSkiff(fn: () => unknown, exit: string, pattern: RegExp): SkiffError {
  try {
    fn();
  } catch (error) {
    assert(error instanceof SkiffError, `a SkiffError, not ${error}`);
    assertEquals(error.exit, exit, error.message);
    assertMatch(error.message, pattern);
    assert(!error.message.includes("\n"), "one line");
    return error;
  }
  throw new Error(`expected a SkiffError with exit ${exit}`);
}

function claimRows(path: string): { task_id: number; claimed_at: number; pid: number }[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'send_claims'").get();
    if (!has) return [];
    return db.prepare("SELECT task_id, claimed_at, pid FROM send_claims ORDER BY task_id").all()
      .map((r) => ({
        task_id: Number(r.task_id),
        claimed_at: Number(r.claimed_at),
        pid: Number(r.pid),
      }));
  } finally {
    db.close();
  }
}

const pane = { id: "p3", name: "reviewer", generation: 1000 };

Deno.test("claimForSend claims a pending task once; finishSend stores the outcome and drops the claim", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const path = ledger.path;
  const task = ledger.add({ pane, task: "Review" });
  assertEquals(claimRows(path), [], "an unclaimed ledger has no claims");

  const claimed = ledger.claimForSend(task.uid.slice(0, 4));
  assertEquals([claimed.id, claimed.state], [task.id, "pending"]);
  assertEquals(claimRows(path), [{ task_id: task.id, claimed_at: T0.getTime(), pid: Deno.pid }]);
  assertEquals(ledger.get(task.uid).state, "pending", "a claim does not change the row");
  const again = throwsSkiff(
    () => ledger.claimForSend(task.uid),
    "CONFLICT",
    new RegExp(`^Task ${task.uid} is being sent by another process \\(pid ${Deno.pid}\\)$`),
  );
  assertEquals(again.details.pid, Deno.pid);

  const sent = ledger.finishSend(task.uid, "sent", { generation: 2000 });
  assertEquals([sent.state, sent.generation, sent.sentAt], ["sent", 2000, T0.toISOString()]);
  assertEquals(claimRows(path), []);
  throwsSkiff(
    () => ledger.claimForSend(task.uid),
    "CONFLICT",
    new RegExp(`^Task ${task.uid} is not pending: it is sent$`),
  );

  // blocked is stored the same way.
  const other = ledger.add({ pane, task: "Other" });
  ledger.claimForSend(other.uid);
  const blocked = ledger.finishSend(other.uid, "blocked", { generation: 3000 });
  assertEquals([blocked.state, blocked.generation], ["blocked", 3000]);
  throwsSkiff(() => ledger.claimForSend(other.uid), "CONFLICT", /is not pending: it is blocked/);

  // A refusal releases the claim and keeps the row as it was.
  const third = ledger.add({ pane, task: "Third" });
  ledger.claimForSend(third.uid);
  const released = ledger.finishSend(third.uid, "released");
  assertEquals(released, third, "the row is as it was");
  assertEquals(claimRows(path), []);
  ledger.claimForSend(third.uid);
  assertEquals(claimRows(path).map((c) => c.task_id), [third.id]);
});

Deno.test("claimForSend takes an interrupted task only with liveness, and refuses the rest", async () => {
  await using dir = await tempDir();
  using ledger = open(dir.path);
  const task = ledger.add({ pane, task: "Was sent" });
  ledger.setSent(task.uid, 1000);
  const restarted = new Map([["p3", { generation: 5000 }]]);
  const same = new Map([["p3", { generation: 1000 }]]);
  throwsSkiff(() => ledger.claimForSend(task.uid), "CONFLICT", /is not pending: it is sent$/);
  throwsSkiff(
    () => ledger.claimForSend(task.uid, { liveness: same }),
    "CONFLICT",
    /is not pending: it is sent$/,
  );
  throwsSkiff(
    () => ledger.claimForSend(task.uid, { liveness: new Map() }),
    "CONFLICT",
    /is not pending: it is sent and shows gone$/,
  );
  assertEquals(ledger.claimForSend(task.uid, { liveness: restarted }).id, task.id);
  assertEquals(ledger.finishSend(task.uid, "sent", { generation: 5000 }).generation, 5000);

  const blocked = ledger.add({ pane, task: "Was blocked" });
  ledger.setBlocked(blocked.uid, 1000);
  assertEquals(ledger.claimForSend(blocked.uid, { liveness: restarted }).id, blocked.id);

  const done = ledger.add({ pane, task: "Done" });
  ledger.done(done.uid);
  throwsSkiff(
    () => ledger.claimForSend(done.uid, { liveness: restarted }),
    "CONFLICT",
    /is not pending: it is done$/,
  );
  const plan = ledger.add({ task: "A plan" });
  throwsSkiff(() => ledger.claimForSend(plan.uid), "USAGE", /is a plan/);
  throwsSkiff(() => ledger.finishSend(plan.uid, "sent", { generation: 1 }), "USAGE", /is a plan/);
  throwsSkiff(() => ledger.claimForSend("ffff0000"), "NOT_FOUND", /No task/);
  // A pending task on a pane that is gone can still be claimed: its stored state decides.
  const lost = ledger.add({ pane: { id: "p9", name: "x", generation: 1 }, task: "Lost" });
  assertEquals(ledger.claimForSend(lost.uid, { liveness: restarted }).id, lost.id);
});

/** A process that claims a task, says so, and then waits (holding the claim) until stdin closes. */
const HOLDER = `
import { openLedger } from ${
  JSON.stringify(new URL("../../../lib/ledger/mod.ts", import.meta.url).href)
};
const [path, uid] = Deno.args;
const ledger = openLedger(path);
ledger.claimForSend(uid);
console.log("claimed");
await Deno.stdin.readable.pipeTo(new WritableStream());
`;

Deno.test("a claim lives exactly as long as its sender: never stale while it runs, free once it ends", async () => {
  await using dir = await tempDir();
  let now = T0;
  using ledger = open(dir.path, () => now);
  const task = ledger.add({ pane, task: "Long send" });
  const holder = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", HOLDER, ledger.path, task.uid],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assertEquals((await reader.read()).value?.trim(), "claimed");
  // A day later the sender still waits for its turn: the claim holds.
  now = new Date(T0.getTime() + 86_400_000);
  const busy = throwsSkiff(
    () => ledger.claimForSend(task.uid),
    "CONFLICT",
    new RegExp(`another process \\(pid ${holder.pid}\\)`),
  );
  assertEquals(busy.details.pid, holder.pid);
  assertEquals(ledger.beingSent(), new Set([task.id]));
  // The sender dies without finishing: its claim goes with it.
  holder.kill("SIGKILL");
  await holder.status;
  await reader.cancel();
  await holder.stdin.close().catch(() => {});
  assertEquals(claimRows(ledger.path)[0].pid, holder.pid, "the dead sender's row stays");
  assertEquals(ledger.beingSent(), new Set(), "but nothing is being sent");
  assertEquals(ledger.claimForSend(task.uid, { pid: 7 }).id, task.id);
  assertEquals(claimRows(ledger.path)[0].pid, 7);
  ledger.finishSend(task.uid, "released");
  assertEquals(claimRows(ledger.path), []);
});

Deno.test("a ledger without send_claims gets it on the first claim; version 1 too", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, parent_id INTEGER,
    pane TEXT, pane_name TEXT, generation INTEGER, state TEXT NOT NULL, task TEXT NOT NULL,
    result TEXT NOT NULL, ref TEXT, created_at TEXT, updated_at TEXT);
    PRAGMA user_version = 1;
    INSERT INTO tasks (pane, state, task, result) VALUES ('p1', 'pending', 'old', 'r.md');`);
  db.close();
  using ledger = open(dir.path);
  assertEquals(ledger.migrated?.to, LEDGER_VERSION);
  const tables = () => {
    const raw = new DatabaseSync(path, { readOnly: true });
    try {
      return raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
        .map((r) => r.name);
    } finally {
      raw.close();
    }
  };
  assert(!tables().includes("send_claims"), "opening adds nothing");
  ledger.list({}, null);
  assert(!tables().includes("send_claims"), "reading adds nothing");
  assertEquals(ledger.claimForSend("1").task, "old");
  assert(tables().includes("send_claims"), "the first claim made the table");
  ledger.finishSend("1", "released");
  // Another process sees a normal current ledger.
  using again = open(dir.path);
  assertEquals(again.migrated, null);
  assertEquals(again.claimForSend("1").id, 1);
});

/**
 * A claimer process: opens the ledger, waits for "go", tries to claim every
 * task (in row id order, or the reverse with "down"), and prints what it won.
 */
const CLAIMER = `
import { openLedger } from ${
  JSON.stringify(new URL("../../../lib/ledger/mod.ts", import.meta.url).href)
};
const [path, count, order] = Deno.args;
const ledger = openLedger(path);
console.log("ready");
const buf = new Uint8Array(16);
await Deno.stdin.read(buf);
const won = [];
const lost = [];
const ids = Array.from({ length: Number(count) }, (_, i) => i + 1);
if (order === "down") ids.reverse();
for (const id of ids) {
  try {
    ledger.claimForSend(String(id));
    won.push(id);
  } catch (error) {
    if (error.exit !== "CONFLICT") throw error;
    lost.push(error.message);
  }
  // A real sender types between its claims; meanwhile the other process may take the lock.
  await new Promise((resolve) => setTimeout(resolve, 1));
}
// Claims live as long as their sender: hold them until the other claimer is done too.
await Deno.writeTextFile(\`\${path}.done-\${order}\`, "");
const other = order === "down" ? "up" : "down";
for (let i = 0; i < 3000; i++) {
  try {
    await Deno.stat(\`\${path}.done-\${other}\`);
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
console.log(JSON.stringify({ won, lost }));
ledger.close();
`;

Deno.test("two claimers in separate processes: each task is claimed by exactly one", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "ledger.db");
  const count = 100;
  {
    using ledger = open(dir.path);
    for (let i = 0; i < count; i++) ledger.add({ pane, task: `Task ${i}` });
  }
  // Two processes try every task from opposite ends, so they meet and race in the middle.
  const orders = ["up", "down"];
  const { results } = await startTogether(
    orders.map((order) => ["eval", "--ext=ts", CLAIMER, path, String(count), order]),
  );
  const reports = results.map(({ status, stdout, stderr }) => {
    assertEquals(status.code, 0, `a claimer failed: ${stderr}`);
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as { won: number[]; lost: string[] };
  });
  const won = reports.flatMap((r) => r.won).sort((a, b) => a - b);
  assertEquals(won, Array.from({ length: count }, (_, i) => i + 1), "each task won exactly once");
  for (const r of reports) {
    assertEquals(r.won.length + r.lost.length, count);
    for (const message of r.lost) assertMatch(message, /is being sent by another process/);
  }
  assertEquals(claimRows(path).length, count);
  console.log(`claims won per process: ${reports.map((r) => r.won.length).join(", ")}`);
});
