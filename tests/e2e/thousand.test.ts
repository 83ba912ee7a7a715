/**
 * A thousand panes in one skiffd: each idle `sh` printed a line of its own,
 * twenty of them flooded for a moment, and most screens went to sleep.
 * `skiff daemon upgrade` hands every pane over, and after `kill -9` of
 * skiffd every pane comes back with its screen. Counts and screens are
 * checked, never times (the bench measures those: `bench/scale.ts`).
 */

import { dirname } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";

const PANES = 1000;
const FLOODING = 20;

/** Each pane's own line, printed before its shell starts. */
function mark(i: number): string {
  return `pane-${i}-was-here`;
}

/**
 * The panes whose captures (with their history) lack what they printed:
 * their own line, or for the ones that flooded, the flood's last lines.
 */
async function missingMarks(skiff: SkiffEnv, ids: string[]): Promise<string[]> {
  const client = await DaemonClient.connect(skiff.socket);
  try {
    const missing: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const { text } = await client.call("pane.capture", { pane: ids[i], scrollback: 100_000 });
      const printed = i < FLOODING ? /^19999\n20000$/m : new RegExp(`^${mark(i)}$`, "m");
      if (!printed.test(text)) missing.push(ids[i]);
    }
    return missing;
  } finally {
    client.close();
  }
}

async function status(skiff: SkiffEnv): Promise<DaemonStatus> {
  return await skiff.json<DaemonStatus>(["daemon", "status"]);
}

Deno.test("a thousand panes: an upgrade hands every one over and a kill -9 brings every one back, with its screen", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(skiff.configFile, "[daemon]\nscreen_sleep_seconds = 2\n");
    await skiff.ok(["daemon", "start"]);
    const ids: string[] = [];
    const client = await DaemonClient.connect(skiff.socket);
    try {
      for (let i = 0; i < PANES; i++) {
        const command = i < FLOODING
          ? ["sh", "-c", `echo ${mark(i)}; seq 1 20000; exec sh`]
          : ["sh", "-c", `echo ${mark(i)}; exec sh`];
        ids.push((await client.call("pane.new", { command, cwd: skiff.root })).id);
      }
    } finally {
      client.close();
    }
    await waitFor("every pane's prompt", async () => {
      const c = await DaemonClient.connect(skiff.socket);
      try {
        for (const id of ids) {
          if (!/[$#] ?$/.test((await c.call("pane.capture", { pane: id })).text)) return false;
        }
        return true;
      } finally {
        c.close();
      }
    }, { timeout: 240_000, interval: 1000 });
    // A flood's first lines scrolled out of the scrollback (2,000 lines): its end is checked.
    assertEquals(await missingMarks(skiff, ids), []);
    await waitFor("screens asleep", async () => (await status(skiff)).screens!.asleep! > 0, {
      timeout: 60_000,
    });

    const upgraded = await skiff.json<{ panes: number }>(["daemon", "upgrade"]);
    assertEquals(upgraded.panes, PANES);
    const after = await status(skiff);
    assertEquals([after.panes, after.running_panes], [PANES, PANES]);
    assertEquals(await missingMarks(skiff, ids), [], "screens after the upgrade");

    Deno.kill(after.pid, "SIGKILL");
    await skiff.ok(["ls", "--json"]);
    await waitFor("every pane restored", async () => {
      const now = await status(skiff);
      return now.pid !== after.pid && now.running_panes === PANES;
    }, { timeout: 240_000, interval: 1000 });
    const listed = await skiff.json<{ panes: { id: string; status: string }[] }>(["ls"]);
    assertEquals(listed.panes.map((p) => p.id), ids, "every pane, under its id, in order");
    assertEquals(await missingMarks(skiff, ids), [], "screens after kill -9");
  });
});
