/**
 * Issue 21 items 17 and 18: `skiff daemon status` tells the watcher's
 * health in text too, and after a kill -9 of skiffd its log says what
 * really happened to the watcher, whose start time stays its own.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import { startWatchRig, waitWatcher } from "../helpers/watch.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";

Deno.test("item 17: skiff daemon status in text shows the watcher's health", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    const before = await skiff.ok(["daemon", "status"]);
    assertMatch(
      before,
      /^watcher: not running \(skiffd starts it while the Skiff agent's session exists\)$/m,
    );
    await startWatchRig(skiff);
    const pid = (await skiff.watcherPid())!;
    const text = await skiff.ok(["daemon", "status"]);
    assertMatch(
      text,
      new RegExp(
        `^watcher: running, pid ${pid}, up \\d+[smhd], nothing to watch; last: started \\(\\d+[smhd] ago\\)$`,
        "m",
      ),
    );
    const json = await skiff.json<DaemonStatus>(["daemon", "status"]);
    assertEquals([json.watcher.running, json.watcher.pid], [true, pid]);
  });
});

Deno.test("item 18: after a kill -9 of skiffd the log says the old watcher runs on and reconnects; its start time is kept", async () => {
  await withSkiff(async (skiff) => {
    await startWatchRig(skiff);
    const first = (await skiff.json<DaemonStatus>(["daemon", "status"])).watcher;
    const pid = first.pid!;
    const daemon = (await skiff.daemonPid())!;
    Deno.kill(daemon, "SIGKILL");
    await waitFor(
      "skiffd to be gone",
      async () => (await skiff.run(["daemon", "status"])).code === 4,
    );
    await skiff.ok(["daemon", "start"]);
    const again = await waitWatcher(skiff, (w) => w.running && w.pid === pid, 30_000);
    assertEquals(again.started, first.started, "the watcher's own start time, not the reconnect's");
    assertEquals(again.last, "reconnected");
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    const run = log.slice(log.lastIndexOf(" starting, pid "));
    assert(
      run.includes(`the watcher runs already (pid ${pid}) and connects by itself`),
      `skiffd says the old watcher runs on:\n${run}`,
    );
    assert(
      run.includes(`the watcher pid ${pid} reconnected, running since ${first.started}`),
      `skiffd says it reconnected:\n${run}`,
    );
    assert(!run.includes("started the watcher"), `no watcher was started:\n${run}`);
    assertEquals(await skiff.watcherPid(), pid, "the same watcher holds the lock");
  });
});
