import { assert, assertEquals, assertRejects, assertThrows } from "../../helpers/assert.ts";
import {
  ensureDir,
  fileLockHeld,
  lockHolderPid,
  tryFileLock,
  withFileLock,
  writeFileAtomic,
  writeOwnPid,
} from "../../../lib/platform/files.ts";
import { join } from "node:path";
import process from "node:process";

function tempDir(): { path: string; [Symbol.dispose](): void } {
  const path = Deno.makeTempDirSync({ prefix: "skiff-files-" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
const modeOf = (path: string) => Deno.statSync(path).mode! & 0o777;

/** A promise with its resolver, to hold a lock until the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => open = resolve);
  return { promise, open };
}

Deno.test("writeFileAtomic: creates, then replaces the content; no temp files remain", () => {
  using dir = tempDir();
  const path = join(dir.path, "state.json");
  writeFileAtomic(path, "first version, longer than the second\n");
  assertEquals(Deno.readTextFileSync(path), "first version, longer than the second\n");
  writeFileAtomic(path, "second\n");
  assertEquals(Deno.readTextFileSync(path), "second\n");
  const bytes = new Uint8Array(3 << 20).map((_, i) => i % 251);
  writeFileAtomic(path, bytes);
  assertEquals(Deno.readFileSync(path), bytes);
  writeFileAtomic(path, "");
  assertEquals(Deno.readTextFileSync(path), "");
  assertEquals(names(dir.path), ["state.json"]);
});

Deno.test("writeFileAtomic: a full disk mid-write throws ENOSPC and leaves the old file whole", () => {
  using dir = tempDir();
  const path = join(dir.path, "state.json");
  writeFileAtomic(path, "the old content\n");
  const error = assertThrows(
    () => writeFileAtomic(path, "a much longer new content\n", { spaceLeft: 5 }),
    /No space left on device/,
  );
  assertEquals((error as Error & { code?: string }).code, "ENOSPC");
  assertEquals(Deno.readTextFileSync(path), "the old content\n");
  assertEquals(names(dir.path), ["state.json"], "the partial temporary file is removed");
  writeFileAtomic(path, "fits\n", { spaceLeft: 100 });
  assertEquals(Deno.readTextFileSync(path), "fits\n");
});

Deno.test("writeFileAtomic: a reader holding the old file keeps the old content", () => {
  using dir = tempDir();
  const path = join(dir.path, "f");
  writeFileAtomic(path, "old");
  using reader = Deno.openSync(path, { read: true });
  writeFileAtomic(path, "new");
  const buf = new Uint8Array(8);
  const n = reader.readSync(buf)!;
  assertEquals(new TextDecoder().decode(buf.subarray(0, n)), "old");
  assertEquals(Deno.readTextFileSync(path), "new");
});

Deno.test("writeFileAtomic: the mode option sets the file's mode, also over an existing file", () => {
  using dir = tempDir();
  const path = join(dir.path, "secret");
  writeFileAtomic(path, "a", { mode: 0o600 });
  assertEquals(modeOf(path), 0o600);
  Deno.chmodSync(path, 0o644);
  writeFileAtomic(path, "b", { mode: 0o600 });
  assertEquals(modeOf(path), 0o600);
  const plain = join(dir.path, "plain");
  writeFileAtomic(plain, "c");
  assertEquals(modeOf(plain), 0o644 & ~process.umask());
});

Deno.test({
  name: "writeFileAtomic: without a mode option an existing file keeps its mode",
  fn() {
    using dir = tempDir();
    const path = join(dir.path, "projects.toml");
    Deno.writeTextFileSync(path, "x = 1\n");
    Deno.chmodSync(path, 0o640);
    writeFileAtomic(path, "x = 2\n");
    assertEquals(modeOf(path), 0o640);
  },
});

Deno.test("writeFileAtomic: a missing folder throws and leaves nothing behind", () => {
  using dir = tempDir();
  assertThrows(() => writeFileAtomic(join(dir.path, "no", "such", "f"), "x"));
  assertEquals(names(dir.path), []);
});

Deno.test("ensureDir: makes parents and sets the mode, also on an existing folder", () => {
  using dir = tempDir();
  const deep = join(dir.path, "a", "b", "c");
  ensureDir(deep, 0o700);
  assertEquals(modeOf(deep), 0o700);
  Deno.chmodSync(deep, 0o755);
  ensureDir(deep, 0o700);
  assertEquals(modeOf(deep), 0o700);
  ensureDir(deep);
  assertEquals(modeOf(deep), 0o700);
});

Deno.test("withFileLock: returns the work's value and makes the lock file 0600", async () => {
  using dir = tempDir();
  const lock = join(dir.path, "x.lock");
  assertEquals(await withFileLock(lock, () => 42), 42);
  assertEquals(await withFileLock(lock, () => Promise.resolve("async")), "async");
  assertEquals(modeOf(lock), 0o600 & ~process.umask());
});

Deno.test("withFileLock: a failing holder rejects and releases the lock", async () => {
  using dir = tempDir();
  const lock = join(dir.path, "x.lock");
  await assertRejects(() =>
    withFileLock(lock, () => {
      throw new Error("work failed");
    }), /^work failed$/);
  assertEquals(await withFileLock(lock, () => "next"), "next");
});

/** Whether another process can take the lock right now (`flock -n`). */
async function freeForOthers(lock: string): Promise<boolean> {
  const { code } = await new Deno.Command("flock", { args: ["-n", lock, "true"] }).output();
  return code === 0;
}

Deno.test("withFileLock: a second holder waits until the first is done", async () => {
  using dir = tempDir();
  const lock = join(dir.path, "x.lock");
  const events: string[] = [];
  const release = gate();
  const entered = gate();
  const first = withFileLock(lock, async () => {
    events.push("A start");
    entered.open();
    await release.promise;
    events.push("A end");
  });
  await entered.promise;
  const second = withFileLock(lock, () => {
    events.push("B start");
    return "B";
  });
  // The lock is visibly held: another process cannot take it. By the time this
  // answer comes back, a non-blocking B would have run.
  assertEquals(await freeForOthers(lock), false);
  assertEquals(events, ["A start"]);
  release.open();
  assertEquals(await second, "B");
  await first;
  assertEquals(events, ["A start", "A end", "B start"]);
  assertEquals(await freeForOthers(lock), true);
});

Deno.test("withFileLock: concurrent holders never overlap and lose no update", async () => {
  using dir = tempDir();
  const lock = join(dir.path, "x.lock");
  const counter = join(dir.path, "counter");
  Deno.writeTextFileSync(counter, "0");
  let active = 0;
  let most = 0;
  const holders = Array.from({ length: 8 }, () =>
    withFileLock(lock, async () => {
      active++;
      most = Math.max(most, active);
      // Real I/O between read and write yields to the event loop.
      const value = Number(await Deno.readTextFile(counter));
      await Deno.writeTextFile(counter, String(value + 1));
      active--;
    }));
  await Promise.all(holders);
  assertEquals(most, 1);
  assertEquals(Deno.readTextFileSync(counter), "8");
  assert(await freeForOthers(lock), "released at the end");
});

Deno.test("tryFileLock: one holder at a time; the holder's pid can be read; a close frees it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skiff-lock-" });
  const path = join(dir, "x.lock");
  try {
    assertEquals(await fileLockHeld(path), false, "no file, no holder");
    assertEquals(lockHolderPid(path), null);
    const first = await tryFileLock(path);
    assert(first, "the first takes it");
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    writeOwnPid(first);
    assertEquals(lockHolderPid(path), Deno.pid);
    // flock belongs to an open file, so a second open in this process is another holder.
    assertEquals(await tryFileLock(path), null);
    assertEquals(await fileLockHeld(path), true);
    first.close();
    assertEquals(await fileLockHeld(path), false);
    const second = await tryFileLock(path);
    assert(second, "free again after the close");
    second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tryFileLock: another process looking with fileLockHeld is not taken for a holder", async () => {
  using dir = tempDir();
  const path = join(dir.path, "x.lock");
  Deno.writeTextFileSync(path, "");
  const url = new URL("../../../lib/platform/files.ts", import.meta.url).href;
  // A client that asks whether skiffd runs, over and over, as `startDaemon` does while it waits.
  const looker = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const { fileLockHeld } = await import(${JSON.stringify(url)});
       console.log("looking");
       const end = Date.now() + 60_000;
       while (Date.now() < end) await fileLockHeld(${JSON.stringify(path)});`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const reader = looker.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const lock = await tryFileLock(path);
      if (lock) lock.close();
      else refused++;
    }
    assertEquals(refused, 0, "a look is never a holder");
  } finally {
    looker.kill();
    await looker.status;
    await looker.stdout.cancel().catch(() => {});
  }
});

Deno.test("tryFileLock: a patient try takes a lock let go within a moment; one held on is refused", async () => {
  using dir = tempDir();
  const path = join(dir.path, "x.lock");
  const brief = await tryFileLock(path);
  assert(brief, "the first takes it");
  setTimeout(() => brief.close(), 15);
  const next = await tryFileLock(path, { patient: true });
  assert(next, "a patient try takes it once the brief holder let go");
  assertEquals(await tryFileLock(path, { patient: true }), null, "refused while it is held");
  assertEquals(await tryFileLock(path), null, "and at once without patience");
  next.close();
});
