/**
 * The watcher end to end, with the fake agent as the Skiff agent and as the
 * workers: every row of the spec's table, once and in its exact form.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { MAIN, pidAlive, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import {
  agentPrompts,
  sendTask,
  startWatchRig,
  startWorker,
  waitPrompt,
  waitWatcher,
} from "../helpers/watch.ts";

const READ = "Read it, then mark it seen.";

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
    await waitPrompt(rig, idle);

    // Goes idle after a prompt, with no turn (the task is blocked).
    const quiet = await sendTask(skiff, "rev", "NOTURN look at it");
    await waitPrompt(rig, `[watch] pane rev ${quiet} is idle. ${READ}`);

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
    await waitPrompt(rig, pendingLine);
    assert(stdout2.trim() !== "", "a second pending task");

    // Its agent exits (the pane's shell stays).
    const bye = await sendTask(skiff, "host", "EXIT");
    await waitPrompt(
      rig,
      `[watch] pane host ${bye}: its agent exited. ${READ}`,
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

Deno.test("watcher: a wake with no turn is logged undelivered, and Enter is never pressed twice", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    // The Skiff agent takes the next line and starts no turn.
    await Deno.writeTextFile(rig.noTurnFile, "");
    const uid = await sendTask(skiff, "rev", "Review");
    const line = `[watch] pane rev ${uid} is idle. ${READ}`;
    await waitPrompt(rig, line);
    const health = await waitWatcher(skiff, (w) => w.ok === false);
    assert(health.last!.startsWith("undelivered: "), health.last!);
    await Deno.remove(rig.noTurnFile);
    // Another fact comes and goes in; the undelivered line is not typed again.
    const next = await sendTask(skiff, "rev", "Again");
    await waitPrompt(rig, `[watch] pane rev ${next} is idle.`);
    assertEquals(count(await agentPrompts(rig), line), 1);
    const log = await Deno.readTextFile(rig.watchLog);
    assertEquals(log.split("\n").filter((l) => l.includes("undelivered")).length, 1, log);
  });
});

Deno.test("watcher: a person typing between the check and the Enter makes skiffd refuse; the line goes later", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff, { turnMs: 2500 });
    await startWorker(skiff, "rev");
    const { DaemonClient } = await import("../../lib/client/client.ts");
    const { encodeFrame, Frame } = await import("../../lib/protocol/frames.ts");
    // A person at the Skiff agent's pane keeps typing (and deleting) while the worker finishes.
    const person = await DaemonClient.connect(skiff.socket);
    await person.call("attach", { pane: "skipper" }, { raw: true });
    let typing = true;
    const typist = (async () => {
      while (typing) {
        await person.write(encodeFrame(Frame.INPUT, "x\x7f"));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      const uid = await sendTask(skiff, "rev", "Review");
      await skiff.ok(["wait", "rev", "--until", "idle", "--timeout", "20"]);
      await waitWatcher(skiff, (w) => w.waiting_lines === 1);
      const log = await waitFor("a refusal in the log", async () => {
        const text = await Deno.readTextFile(rig.watchLog);
        return /held 1 line\(s\): Pane 'skipper': a person (is typing|typed)/.test(text)
          ? text
          : undefined;
      });
      assertEquals(await agentPrompts(rig), [], log);
      typing = false;
      await typist;
      await waitPrompt(rig, `[watch] pane rev ${uid} is idle. ${READ}`);
    } finally {
      typing = false;
      person.close();
    }
  });
});

Deno.test("watcher: a pending task sent by hand before the line is typed is dropped", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "ops");
    // Keep the Skiff agent busy until the task was sent by hand, so the pending line waits.
    const release = join(skiff.root, "release-skipper");
    await skiff.ok(["send", "skipper", `HOLD ${release} think a while`, "--enter"]);
    const slow = await sendTask(skiff, "ops", "SLOW 500 build");
    const { stdout } = await skiff.run(["ledger", "add", "--pane", "ops", "--task", "Deploy"]);
    const pending = stdout.trim().split(" ")[0];
    await waitWatcher(skiff, (w) => w.waiting_lines === 1);
    // The person sends it by hand (and records that) while the line waits: no pane event
    // tells the watcher, only the ledger it reads again just before typing.
    await skiff.ok(["ledger", "update", pending, "--state", "sent"]);
    await Deno.writeTextFile(release, "");
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);
    await waitFor(
      "the drop in the log",
      async () =>
        (await Deno.readTextFile(rig.watchLog)).includes(
          `dropped: task ${pending} is no longer pending`,
        ),
      // The watcher retries a held line every 2 s and reads the ledger and panes first:
      // on a loaded machine that round alone can take seconds.
      { timeout: 30_000 },
    );
    const prompts = await agentPrompts(rig);
    assert(!prompts.some((p) => p.includes(`task ${pending} is pending`)), prompts.join("\n"));
    assert(slow !== pending);
  });
});

Deno.test("watcher: two started at once leave one; it stops when the Skiff agent's session ends", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    const first = await skiff.run(["watch"]);
    const second = await skiff.run(["watch", "--json"]);
    assertEquals([first.code, second.code], [0, 0]);
    assert(first.stdout.startsWith("A watcher already runs"), first.stdout);
    assertEquals(JSON.parse(second.stdout).already, true);
    const pid = (await skiff.watcherPid())!;
    await skiff.ok(["kill", "skipper"]);
    await waitWatcher(skiff, (w) => !w.running);
    await waitFor("the watcher to exit", () => {
      try {
        Deno.kill(pid, "SIGCONT");
        return false;
      } catch {
        return true;
      }
    });
    assert((await Deno.readTextFile(rig.watchLog)).includes("watcher stopped: session-ended"));
  });
});

Deno.test("watcher: it follows a daemon restart, and ends at once when skiffd is stopped for good", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    const pid = (await skiff.watcherPid())!;
    assert(pidAlive(pid), "the watcher runs");

    // A restart: the same watcher connects to the new skiffd.
    await skiff.ok(["daemon", "restart"]);
    await waitWatcher(skiff, (w) => w.running && w.pid === pid);

    // A stop for good: the watcher does not wait 10 minutes for skiffd to come back.
    await skiff.ok(["daemon", "stop"]);
    await waitFor("the watcher to exit", () => !pidAlive(pid));
    const log = await Deno.readTextFile(rig.watchLog);
    assert(log.includes("watcher stopped: daemon-stopped"), log);
  });
});

Deno.test("watcher: a reload and a kill -9 restart are survived: nothing said twice, nothing lost", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    const first = await sendTask(skiff, "rev", "Before the reload");
    const firstLine = `[watch] pane rev ${first} is idle. ${READ}`;
    await waitPrompt(rig, firstLine);
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);

    // A reload drops the watcher's connection; it resumes after the last event it saw.
    await skiff.ok(["daemon", "reload"]);
    const second = await sendTask(skiff, "rev", "After the reload");
    await waitPrompt(rig, `[watch] pane rev ${second} is idle.`);
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);

    // kill -9: every pane comes back as a shell; the task sent before is interrupted.
    Deno.kill((await skiff.daemonPid())!, "SIGKILL");
    await skiff.ok(["ls"]);
    const { FAKE_AGENT } = await import("../helpers/fake_agent.ts");
    await skiff.ok([
      "keys",
      "skipper",
      `FAKE_LOG=${rig.agentLog} FAKE_TURN_MS=400 ${Deno.execPath()} run -A -q ${FAKE_AGENT}`,
      "Enter",
    ]);
    const interrupted = await waitPrompt(
      rig,
      /\[watch\] pane rev [0-9a-f]{8} is interrupted/,
      40_000,
    );
    assertEquals(
      interrupted.slice(interrupted.indexOf("[watch] pane rev")),
      `[watch] pane rev ${second} is interrupted: the pane restarted after the send. Read it, ` +
        `then send the task again with skiff ledger send ${second} --enter, or update it.`,
    );
    const prompts = await agentPrompts(rig);
    assertEquals(count(prompts, firstLine), 1, prompts.join("\n"));
    assertEquals(count(prompts, `pane rev ${second} is idle`), 1, prompts.join("\n"));
    assertEquals(count(prompts, `${second} is interrupted`), 1, prompts.join("\n"));
  });
});

Deno.test("watcher: a pane that goes idle while its task is still being sent is told once the send ends, as idle", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    // No turn starts: skiffd says idle-no-turn after 3 s, while the sender still waits for
    // a turn (8 s) with the task pending and claimed.
    const sending = sendTask(skiff, "rev", "NOTURN look at it", ["--timeout", "8"]);
    await waitFor("the watcher to hold the line during the send", async () => {
      const log = await Deno.readTextFile(rig.watchLog).catch(() => "");
      return log.includes("held 1 line(s) while a task of their pane is being sent");
    }, { timeout: 20_000 });
    assertEquals(await agentPrompts(rig), [], "nothing typed while the send runs");
    const quiet = await sending;
    const line = await waitPrompt(rig, `[watch] pane rev ${quiet} is idle.`);
    assertEquals(line, `[watch] pane rev ${quiet} is idle. ${READ}`);
    const prompts = await agentPrompts(rig);
    assert(!prompts.some((p) => p.includes("is pending")), prompts.join("\n"));
    const state = await skiff.json<{ row: { stored_state: string } }>(["ledger", "show", quiet]);
    assertEquals(state.row.stored_state, "blocked");
  });
});

Deno.test("case 14: watcher: a followed pane's turn end that a person watched, attached, still reaches the Skiff agent", async () => {
  // The spec: a pane that ends a turn gets the agent a line; the task sent there is still open.
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    const release = join(skiff.root, "release");
    const uid = await sendTask(skiff, "rev", `HOLD ${release} review the parser`);
    const term = await TestTerminal.start(
      [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "rev"],
      { env: skiff.env, cwd: skiff.env.HOME, cols: 100, rows: 30 },
    );
    try {
      await term.waitForText(/Working…/);
      await Deno.writeTextFile(release, "");
      await term.waitForText(/fake reply to: HOLD/);
      await waitPrompt(rig, `[watch] pane rev ${uid} is idle. ${READ}`);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
    // Once the person left, the pane is seen.
    await waitFor("rev seen", async () => {
      const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
      const rev = panes.find((p) => p.name === "rev");
      return rev?.attached === 0 && !rev.unread;
    });
  });
});
