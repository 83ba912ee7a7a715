/**
 * Following one file with the system's file events: through the making of
 * its folders, its writes and its companions (`-wal`), a removal of its
 * folder and the folder made again; and which events count at all.
 */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { eventConcerns, watchPath } from "../../../lib/platform/path_watch.ts";

Deno.test("eventConcerns: the file and names that start with it; the next folder; the folder itself", () => {
  const watched = { folder: "/h/agent", next: null, name: "ledger.db" };
  assertEquals(eventConcerns("/h/agent/ledger.db", watched), "file");
  assertEquals(eventConcerns("/h/agent/ledger.db-wal", watched), "file");
  assertEquals(eventConcerns("/h/agent/notes.md", watched), null);
  assertEquals(eventConcerns("/h/agent/results/ledger.db", watched), null);
  assertEquals(eventConcerns("/h/agent", watched), "rearm");
  const above = { folder: "/h", next: "agent", name: "ledger.db" };
  assertEquals(eventConcerns("/h/agent", above), "rearm");
  assertEquals(eventConcerns("/h/.bash_history", above), null);
  assertEquals(eventConcerns("/h/ledger.db", above), null);
});

/** Counts a watch's calls, and waits for the next one after an action. */
function counted(path: string) {
  let calls = 0;
  const watch = watchPath(path, { changed: () => calls++ });
  return {
    watch,
    async after(what: string, action: () => void): Promise<void> {
      const before = calls;
      action();
      await waitFor(`a change after ${what}`, () => calls > before);
    },
  };
}

Deno.test("watchPath follows a file whose folders do not exist yet, through their making, its writes, and its folder going and coming back", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-watch-" });
  const folder = join(root, "home", "agent");
  const file = join(folder, "ledger.db");
  const { watch, after } = counted(file);
  try {
    await after("the first folder", () => Deno.mkdirSync(join(root, "home")));
    await after("the file's folder", () => Deno.mkdirSync(folder));
    await after("the file", () => Deno.writeTextFileSync(file, "one"));
    await after("its -wal", () => Deno.writeTextFileSync(`${file}-wal`, "frames"));
    await after("a write", () => Deno.writeTextFileSync(file, "two"));
    await after("a rename over it", () => {
      Deno.writeTextFileSync(`${file}.tmp`, "three");
      Deno.renameSync(`${file}.tmp`, file);
    });
    await after("the folder renamed away", () => Deno.renameSync(folder, join(root, "old")));
    await after("the folder made again", () => Deno.mkdirSync(folder));
    await after("the file made again", () => Deno.writeTextFileSync(file, "four"));
    await after("the folder removed", () => Deno.removeSync(folder, { recursive: true }));
    await after("the folder and file made again", () => {
      Deno.mkdirSync(folder);
      Deno.writeTextFileSync(file, "five");
    });
    assertEquals(watch.path, file);
  } finally {
    watch.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("watchPath sees a file made at once under folders made at once, however the watch and the making interleave", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-watch-" });
  try {
    // Another process makes the folders and the file while the watch moves down from one
    // folder to the next: a folder made between the watch's look and its arming must not
    // leave it watching the folder above for a name that came already.
    for (let round = 0; round < 40; round++) {
      const file = join(root, String(round), "not", "made", "yet", "tasks.db");
      let seen = false;
      const watch = watchPath(file, {
        changed: () => {
          try {
            seen ||= Deno.statSync(file).isFile;
          } catch {
            // Not there yet.
          }
        },
      });
      try {
        const made = await new Deno.Command("sh", {
          args: ["-c", 'mkdir -p "$(dirname "$1")" && : > "$1"', "sh", file],
        }).output();
        assertEquals(made.code, 0);
        await waitFor(`round ${round}: the file seen`, () => seen, { timeout: 3000 });
      } finally {
        watch.close();
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
