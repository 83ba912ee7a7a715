/**
 * The watcher killed (SIGKILL) at random moments while it wakes the Skiff
 * agent: no line is typed twice, and the next watcher run tells only what
 * is still untold. `SKIFF_WATCH_SEED` replays a run.
 *
 * @module
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { Rng } from "../helpers/fuzz.ts";
import { pidAlive, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import {
  agentPrompts,
  sendTask,
  startWatchRig,
  startWorker,
  waitPrompt,
  waitWatcher,
} from "../helpers/watch.ts";

const ROUNDS = Number(Deno.env.get("SKIFF_WATCH_KILLS") ?? 10);
const SEED = Number(Deno.env.get("SKIFF_WATCH_SEED") ?? Math.floor(Math.random() * 2 ** 31));

/** Every `[watch]` line the agent got, each joined line split into its parts. */
function linesOf(prompts: string[]): string[] {
  return prompts.flatMap((p) => p.split(/(?=\[watch\] )/).map((l) => l.trim()).filter(Boolean));
}

Deno.test("watcher killed mid-wake at random moments: no line typed twice, the next run tells only what is untold", async () => {
  await withSkiff(async (skiff) => {
    const rng = new Rng(SEED);
    console.log(`watch kill seed ${SEED} (SKIFF_WATCH_SEED=${SEED} replays it)`);
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    await startWorker(skiff, "ops");
    const uids: string[] = [];
    // Follow the workers' turn ends as they happen, without a command's start-up in between.
    const client = await DaemonClient.connect(skiff.socket);
    const events = await client.subscribe();
    let turnEnds = 0;
    let ends = 0;
    let agentEvents = 0;
    const follow = (async () => {
      for await (const event of events) {
        if (!("name" in event)) continue;
        if (event.event === "turn-end" && event.name !== "skipper") turnEnds++;
        // The first thing the agent's pane shows of a wake is its title, as the text lands.
        if (event.name === "skipper") agentEvents++;
      }
    })();
    for (let round = 0; round < ROUNDS; round++) {
      const watcher = (await waitWatcher(skiff, (w) => w.running && w.pid !== null)).pid!;
      // Both workers end a turn: the watcher wakes the agent with one joined line (or two).
      const pending = await Promise.all([
        sendTask(skiff, "rev", `review ${round}`),
        sendTask(skiff, "ops", `build ${round}`),
      ]);
      uids.push(...pending);
      // The wake starts a moment after a worker's turn ends; kill somewhere around its typing.
      const seen = agentEvents;
      await waitFor("a worker's turn to end", () => turnEnds > ends);
      ends = turnEnds;
      if (round % 3) {
        // Two rounds in three aim at the typing itself: after the text landed, before Enter or
        // before skiffd's answer.
        await waitFor("the wake to start typing", () => agentEvents > seen);
        await new Promise((resolve) => setTimeout(resolve, rng.int(250)));
      } else {
        await new Promise((resolve) => setTimeout(resolve, rng.int(900)));
      }
      Deno.kill(watcher, "SIGKILL");
      await waitFor("the watcher to die", () => !pidAlive(watcher));
      // A new run, as skiffd starts it when the Skiff agent's session gets its mark.
      await skiff.ok(["mark", "skipper", "skiff-agent=1"]);
      await waitWatcher(skiff, (w) => w.running && w.pid !== watcher);
      for (const uid of pending) {
        await waitPrompt(rig, new RegExp(`pane (rev|ops) ${uid} is idle`), 30_000);
      }
      await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "30"]);
    }
    client.close();
    await follow;
    // Anything a run could still type twice has had its chance.
    await waitWatcher(skiff, (w) => w.waiting_lines === 0);
    const prompts = await agentPrompts(rig);
    const lines = linesOf(prompts);
    // A prompt the agent got that no watcher logged as woke: its watcher died while typing it.
    const log = await Deno.readTextFile(rig.watchLog);
    const refused = log.split("\n").filter((l) => l.includes("typed already by an earlier")).length;
    const woke = log.split("\n")
      .map((line) => /woke skipper: (.*)$/.exec(line)?.[1]).filter((text) => text !== undefined);
    const midWake = prompts.filter((p) => !woke.includes(p)).length;
    console.log(
      `watcher: ${ROUNDS} kills, ${midWake} of them mid-wake (typed, never logged as woke), ` +
        `${lines.length} lines typed, ${refused} sends refused as told already`,
    );
    const twice = lines.filter((line, i) => lines.indexOf(line) !== i);
    assertEquals(twice, [], `seed ${SEED}: lines typed twice`);
    for (const uid of uids) {
      assertEquals(lines.filter((l) => l.includes(`${uid} is idle`)).length, 1, `${uid} told once`);
    }
    assert(lines.length >= uids.length);
  });
});
