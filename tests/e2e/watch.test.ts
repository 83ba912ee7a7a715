/**
 * The watcher end to end, with the fake agent as the Skiff agent and as the
 * workers: every row of the spec's table, once and in its exact form.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { waitFor, withSkiff } from "../helpers/skiff.ts";
import {
  agentPrompts,
  sendTask,
  startWatchRig,
  startWorker,
  waitPrompt,
  waitWatcher,
} from "../helpers/watch.ts";

const READ = "Read it, then mark it seen.";

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** How many of the agent's prompts hold `line` (joined lines count each part). */
function count(prompts: string[], line: string): number {
  return prompts.filter((p) => p.includes(line)).length;
}

Deno.test("watcher: a turn end, an idle with no turn, a pending task, exits and a gone pane each get their line once", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    await startWorker(skiff, "host", { shell: true });
    await startWorker(skiff, "ops");

    // Ends a turn.
    const review = await sendTask(skiff, "rev", "Review the parser");
    const idle = `[watch] pane rev ${review} is idle. ${READ}`;
    await waitPrompt(rig, new RegExp(escape(idle)));

    // Goes idle after a prompt, with no turn (the task is blocked).
    const quiet = await sendTask(skiff, "rev", "NOTURN look at it");
    await waitPrompt(rig, new RegExp(escape(`[watch] pane rev ${quiet} is idle. ${READ}`)));

    // Is idle with a pending task: the line names the oldest pending uid and its command.
    const slow = await sendTask(skiff, "ops", "SLOW 2500 build it");
    const { stdout } = await skiff.run(["ledger", "add", "--pane", "ops", "--task", "Deploy"]);
    const pending = stdout.trim().split(" ")[0];
    const { stdout: stdout2 } = await skiff.run([
      "ledger",
      "add",
      "--pane",
      "ops",
      "--task",
      "Tag",
    ]);
    const pendingLine = `[watch] pane ops ${slow} is idle: task ${pending} is pending: ` +
      `skiff ledger send ${pending} --enter. ${READ}`;
    await waitPrompt(rig, new RegExp(escape(pendingLine)));
    assert(stdout2.trim() !== "", "a second pending task");

    // Its agent exits (the pane's shell stays).
    const bye = await sendTask(skiff, "host", "EXIT");
    await waitPrompt(
      rig,
      new RegExp(escape(`[watch] pane host ${bye}: its agent exited. ${READ}`)),
    );

    // Exits: the pane's own process ends. The line names the task followed there when it is
    // typed: the EXIT task once its send is recorded, the one before while it is in flight.
    await skiff.ok(["ledger", "done", pending]);
    await skiff.ok(["ledger", "done", stdout2.trim().split(" ")[0]]);
    const last = await sendTask(skiff, "ops", "EXIT");
    const exited = await waitPrompt(rig, /\[watch\] pane ops [0-9a-f]{8} exited\./);
    const named = /pane ops ([0-9a-f]{8}) exited/.exec(exited)![1];
    assert([last, slow].includes(named), `${named} is neither ${last} nor ${slow}`);
    assertEquals(
      exited.slice(exited.indexOf("[watch] pane ops")),
      `[watch] pane ops ${named} exited. ${READ}`,
    );

    // Is gone.
    await skiff.ok(["kill", "rev"]);
    await waitPrompt(rig, /\[watch\] pane rev [0-9a-f]{8} is gone: the pane no longer exists\./);

    // Once each, however the lines were joined.
    const prompts = await agentPrompts(rig);
    assertEquals(count(prompts, idle), 1, prompts.join("\n"));
    assertEquals(count(prompts, pendingLine), 1, prompts.join("\n"));
    assert(prompts.every((p) => !p.includes("\n")), "a typed line has no line break");
  });
});

Deno.test("watcher: an approval or a bell is a desktop notification, never a line", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "ops");
    await sendTask(skiff, "ops", "APPROVE rm -rf build");
    await skiff.ok(["wait", "ops", "--until", "waiting", "--timeout", "10"]);
    const notified = await waitFor("a notification", async () => {
      const text = await Deno.readTextFile(rig.notifyLog).catch(() => "");
      return text.includes("ops waits for an approval") ? text : undefined;
    });
    assert(notified.startsWith("--app-name=Skiff Skiff ops waits for an approval"), notified);
    const before = await agentPrompts(rig);
    assertEquals(before.filter((p) => p.includes("pane ops")), [], "the agent got nothing");
    const health = await waitWatcher(skiff, (w) => w.watching.length === 1);
    assertEquals(health.ok, true);
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.watch.log"));
    assert(/pane ops waits for an approval: notified/.test(log), log);
  });
});

Deno.test("watcher: lines that wait are joined; a draft or a shell in front holds them", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "a");
    await startWorker(skiff, "b");
    // A draft in the agent's input box holds every line.
    await skiff.ok(["keys", "skipper", "my own draft"]);
    const one = await sendTask(skiff, "a", "first");
    const two = await sendTask(skiff, "b", "second");
    await skiff.ok(["wait", "a", "--until", "idle", "--timeout", "20"]);
    await skiff.ok(["wait", "b", "--until", "idle", "--timeout", "20"]);
    await waitWatcher(skiff, (w) => w.waiting_lines === 2);
    assertEquals(await agentPrompts(rig), [], "held while a draft shows");
    // The person clears the draft: both lines go in as one.
    await skiff.ok(["keys", "skipper", "C-u"]);
    const joined = await waitPrompt(rig, /pane a .* pane b /);
    assertEquals(
      joined,
      `[watch] pane a ${one} is idle. ${READ} [watch] pane b ${two} is idle. ${READ}`,
    );
  });
});
