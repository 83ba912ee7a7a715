/**
 * `skiff daemon upgrade` with agents at work: a fake agent mid-turn ends its
 * turn after the upgrade, the watcher (replaced by the new program's) tells
 * the Skiff agent once, and the ledger task stays `sent` until then.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { EventStream } from "../helpers/events.ts";
import { waitFor, withSkiff } from "../helpers/skiff.ts";
import {
  agentPrompts,
  sendTask,
  startWatchRig,
  startWorker,
  waitPrompt,
  waitWatcher,
} from "../helpers/watch.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

Deno.test("upgrade: an agent mid-turn ends its turn after it, the task stays sent, and the watcher's line reaches the Skiff agent once", async () => {
  const next = await makeCheckout({ version: "0.99.0" });
  try {
    await withSkiff(async (skiff) => {
      const rig = await startWatchRig(skiff);
      const watcherBefore = (await skiff.watcherPid())!;
      await startWorker(skiff, "rev");
      // A turn that stops at a question: mid-turn until a key answers it, however long that takes.
      const uid = await sendTask(skiff, "rev", "ASK which way");
      const worker = await waitFor("the worker to wait for an answer", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes
          .find((p) => p.name === "rev")!;
        return pane.state === "waiting" ? pane : undefined;
      });

      const stream = await EventStream.start(skiff);
      const upgraded = await skiff.run(["daemon", "upgrade"], { main: next.main });
      assertEquals(upgraded.code, 0, upgraded.stderr);

      // Still mid-turn, with the same process and generation, and the task still sent.
      const after = (await skiff.json<{ panes: PaneInfo[] }>(["ls"], { main: next.main })).panes
        .find((p) => p.name === "rev")!;
      assertEquals([after.pid, after.generation], [worker.pid, worker.generation]);
      assertEquals(after.state, "waiting", "the tracker went on mid-turn");
      const task = await skiff.json<{ row: TaskJson }>(["ledger", "show", uid], {
        main: next.main,
      });
      assertEquals(task.row.state, "sent");

      // The new program's watcher took over from the old one.
      const watcher = await waitWatcher(skiff, (w) => w.running && w.pid !== watcherBefore);
      assert(watcher.pid !== watcherBefore);

      // The answer ends the turn, after the upgrade.
      await skiff.ok(["keys", "rev", "y"], { main: next.main });
      const line = `[watch] pane rev ${uid} is idle. Read it, then mark it seen.`;
      await waitPrompt(rig, new RegExp(line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), 30_000);
      // The new skiffd went on with the agent and its turn: no new agent, one turn end.
      await stream.next((e) => e.event === "turn-end" && e.name === "rev");
      const rev = stream.events.filter((e) => e.name === "rev").map((e) => e.event);
      assert(!rev.includes("agent-start"), rev.join(", "));
      assertEquals(rev.filter((e) => e === "turn-end").length, 1, rev.join(", "));
      await stream.stop();
      // The question was news once: the new skiffd knew the turn was waiting already.
      const notes = (await Deno.readTextFile(rig.notifyLog).catch(() => "")).split("\n")
        .filter((l) => l.includes("rev"));
      assertEquals(notes.length, 1, notes.join("\n"));
      const prompts = await agentPrompts(rig);
      assertEquals(
        prompts.filter((p) => p.includes(`pane rev ${uid}`)).length,
        1,
        prompts.join("\n"),
      );
    });
  } finally {
    await next.remove();
  }
});
