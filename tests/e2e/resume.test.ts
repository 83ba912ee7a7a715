/**
 * Every agent pane resumes its own conversation after a restore (issue 19),
 * with the fake agent (tests/fixtures/fake_agent.ts), which keeps
 * conversations the way real agents do: an id in its hooks, a record file,
 * `--session ID` to resume one, `CLEAR` to start another. The real agents
 * are in tests/real/resume.test.ts.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import {
  FAKE_AGENT,
  fakeAgentToml,
  hookPrefix,
  startFakeAgent,
  useFakeAgent,
} from "../helpers/fake_agent.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import {
  agentPrompts,
  sendTask,
  startWatchRig,
  startWorker,
  waitPrompt,
} from "../helpers/watch.ts";

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const found = (await panes(skiff)).find((p) => p.name === name);
  assert(found, `pane ${name} is listed`);
  return found;
}

/** Starts the fake agent in pane `name` in `cwd`, with its hooks reaching skiffd. */
async function startAgent(skiff: SkiffEnv, name: string, cwd: string, more: string[] = []) {
  await startFakeAgent(skiff, name, {
    cwd,
    env: { FAKE_HOOK: hookPrefix(), FAKE_TURN_MS: "300" },
    extra: more,
  });
}

/** Sends a prompt and waits for its turn to end. */
async function turn(skiff: SkiffEnv, name: string, prompt: string): Promise<void> {
  await skiff.ok(["send", name, prompt, "--enter"]);
  await skiff.ok(["wait", name, "--until", "idle", "--timeout", "30"]);
}

/** Kills skiffd with SIGKILL; the next command restores. */
async function crash(skiff: SkiffEnv): Promise<void> {
  const pid = (await skiff.daemonPid())!;
  Deno.kill(pid, "SIGKILL");
  await waitFor("skiffd to die", () => !pidAlive(pid));
}

/** Waits until pane `name`'s agent was resumed and is idle again. */
async function resumed(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const info = await waitFor(`${name}'s resume line to go in`, async () => {
    const p = await pane(skiff, name);
    return p.resume?.state === "typed" ? p : undefined;
  }, { timeout: 40_000 });
  await waitFor(
    `${name}'s agent to be back`,
    async () => (await pane(skiff, name)).agent === "fake",
    {
      timeout: 30_000,
    },
  );
  await skiff.ok(["wait", name, "--until", "idle", "--timeout", "30"]);
  return info;
}

/** What the agent in `name` recalls of its conversation (its earlier prompts). */
async function recall(skiff: SkiffEnv, name: string): Promise<string> {
  await turn(skiff, name, "RECALL");
  const screen = await skiff.ok(["capture", name]);
  const line = screen.split("\n").findLast((l) => l.startsWith("● recalled:"));
  assert(line, screen);
  return line;
}

Deno.test("after kill -9, each agent pane resumes its own conversation: two in one folder, and one after a rotation", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const work = join(skiff.root, "work");
    await Deno.mkdir(work);
    await startAgent(skiff, "a", work);
    await startAgent(skiff, "b", work);
    await turn(skiff, "a", "first MARKER-A");
    await turn(skiff, "b", "first MARKER-B");
    const [a, b] = [await pane(skiff, "a"), await pane(skiff, "b")];
    assert(a.conversation && b.conversation, "both know their conversation");
    assert(a.conversation.id !== b.conversation.id, "two conversations in one folder");
    assertEquals([a.conversation.agent, a.conversation.cwd, a.conversation.live], [
      "fake",
      work,
      true,
    ]);

    // Rotation: b starts a new conversation (as /clear does); its id follows.
    await skiff.ok(["keys", "b", "CLEAR", "Enter"]);
    const rotated = await waitFor("b's new conversation", async () => {
      const c = (await pane(skiff, "b")).conversation;
      return c && c.id !== b.conversation!.id ? c : undefined;
    });
    assertEquals(rotated.source, "SessionStart");
    await turn(skiff, "b", "second MARKER-C");
    const explained = await skiff.ok(["explain", "b"]);
    assertMatch(explained, new RegExp(`conversation fake ${rotated.id} in ${work}`));

    await crash(skiff);
    const after = await resumed(skiff, "a");
    assertEquals(after.resumed, "fake");
    assertMatch(after.resume!.line!, new RegExp(`--session ${a.conversation.id}$`));
    await resumed(skiff, "b");
    assertEquals(await recall(skiff, "a"), "● recalled: first MARKER-A");
    assertEquals(await recall(skiff, "b"), "● recalled: second MARKER-C");
    // The ids stay; the new shells run in the conversations' folder.
    for (const name of ["a", "b"]) {
      const p = await pane(skiff, name);
      assertEquals([p.cwd, p.conversation?.live], [work, true]);
    }
    assertEquals((await pane(skiff, "a")).conversation!.id, a.conversation.id);
    assertEquals((await pane(skiff, "b")).conversation!.id, rotated.id);
    // Quitting the agent leaves the shell.
    await skiff.ok(["keys", "a", "EXIT", "Enter"]);
    await waitFor("a's shell back", async () => (await pane(skiff, "a")).agent === null);
    assertEquals((await pane(skiff, "a")).status, "running");
  });
});

Deno.test("a restore that cannot resume leaves a shell and says why; an agent that had quit is not resumed; ids are kept", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const work = join(skiff.root, "work");
    await Deno.mkdir(work);
    await startAgent(skiff, "gone", work);
    await startAgent(skiff, "off", work, ["--no-resume"]);
    // An agent started in a shell (its hooks still reach skiffd), which it quits.
    await skiff.ok([
      "new",
      "--name",
      "quit",
      "--cwd",
      work,
      "--env",
      `FAKE_HOOK=${hookPrefix()}`,
      "--",
      "bash",
      "--norc",
    ]);
    await skiff.ok(["keys", "quit", `${Deno.execPath()} run -A -q ${FAKE_AGENT}`, "Enter"]);
    await skiff.ok(["wait", "quit", "--until", "idle", "--timeout", "30"]);
    await waitFor("its hooks to name its conversation", async () => {
      return (await pane(skiff, "quit")).conversation?.live;
    });
    await turn(skiff, "gone", "remember MARKER-G");
    const gone = (await pane(skiff, "gone")).conversation!;
    // Its record goes away; the agent of "quit" quits before the crash.
    await Deno.remove(gone.record!);
    await skiff.ok(["keys", "quit", "EXIT", "Enter"]);
    await waitFor("quit's agent to go", async () => {
      const c = (await pane(skiff, "quit")).conversation;
      return c?.live === false;
    });
    assertEquals((await pane(skiff, "off")).no_resume, true);
    await crash(skiff);
    const skipped = await waitFor("the restore", async () => {
      const all = await panes(skiff);
      return all.every((p) => p.status === "running") ? all : undefined;
    });
    const by = (name: string) => skipped.find((p) => p.name === name)!;
    assertEquals(by("gone").resume?.state, "skipped");
    assertMatch(by("gone").resume!.why!, /keeps no record of conversation .* \(looked at /);
    assertEquals(by("off").resume?.state, "skipped");
    assertMatch(by("off").resume!.why!, /--no-resume/);
    assertEquals(by("quit").resume, null, "an agent that was not running is not resumed");
    for (const name of ["gone", "off", "quit"]) {
      assertEquals(by(name).agent, null, `${name} is a shell`);
      assertEquals(by(name).resumed, null);
      assert(by(name).conversation, `${name} keeps its conversation's id`);
      assertEquals(by(name).conversation!.live, false);
    }
    assertEquals(by("gone").conversation!.id, gone.id);
    const text = await skiff.ok(["explain", "gone"]);
    assertMatch(text, /after the restore, fake not resumed: Fake Agent keeps no record/);
  });
});

Deno.test("resume is off with [daemon] resume = false, and for one project with resume = false", async () => {
  await withSkiff(async (skiff) => {
    const work = join(skiff.root, "work");
    await Deno.mkdir(work);
    await useFakeAgent(skiff, {
      extra: `[projects.quiet]\nroot = "${work}"\nresume = false\n`,
    });
    await startAgent(skiff, "inproject", work, ["--project", "quiet"]);
    await startAgent(skiff, "loose", work);
    await crash(skiff);
    let last: PaneInfo | undefined;
    await waitFor("the loose pane resumed", async () => {
      last = await pane(skiff, "loose");
      return last.resume?.state === "typed";
    }, { timeout: 40_000 }).catch((error) => {
      throw new Error(`${error.message}: ${JSON.stringify(last)}`);
    });
    const quiet = await pane(skiff, "inproject");
    assertEquals(quiet.resume?.state, "skipped");
    assertMatch(quiet.resume!.why!, /resume is off for project quiet/);

    // Off for all: [daemon] resume = false.
    await Deno.writeTextFile(
      skiff.configFile,
      (await Deno.readTextFile(skiff.configFile)).replace("[daemon]", "[daemon]\nresume = false"),
    );
    await skiff.ok(["wait", "loose", "--until", "idle", "--timeout", "30"]);
    await crash(skiff);
    const loose = await waitFor("the restore", async () => {
      const p = await pane(skiff, "loose");
      return p.resume?.state === "skipped" ? p : undefined;
    });
    assertMatch(loose.resume!.why!, /resume is off \(\[daemon\] resume = false\)/);
  });
});

Deno.test("a restart (not only a crash) resumes; a bad resume setting is refused with its place", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const work = join(skiff.root, "work");
    await Deno.mkdir(work);
    await startAgent(skiff, "r", work);
    await turn(skiff, "r", "before the restart MARKER-R");
    await skiff.ok(["daemon", "restart"]);
    await resumed(skiff, "r");
    assertEquals(await recall(skiff, "r"), "● recalled: before the restart MARKER-R");

    await Deno.writeTextFile(
      skiff.configFile,
      (await Deno.readTextFile(skiff.configFile)).replace("[daemon]", '[daemon]\nresume = "yes"'),
    );
    const refused = await skiff.run(["daemon", "restart"]);
    assertEquals(refused.code, 2, refused.stderr);
    assertMatch(refused.stderr, /projects\.toml:2:\d+: 'daemon\.resume' must be true or false/);
  });
});

Deno.test("a task sent before the crash shows interrupted while its agent is resumed, and the watcher tells the Skiff agent once", async () => {
  await withSkiff(async (skiff) => {
    const rig = await startWatchRig(skiff);
    await startWorker(skiff, "rev");
    const uid = await sendTask(skiff, "rev", "Review before the crash");
    await waitPrompt(rig, new RegExp(`\\[watch\\] pane rev ${uid} is idle`));
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);
    await crash(skiff);
    await resumed(skiff, "rev");
    const shown = await skiff.json<{ row: { state: string } }>(["ledger", "show", uid]);
    assertEquals(shown.row.state, "interrupted");
    // The Skiff agent's own session is a shell: a worker's resume never goes there.
    const skipper = await pane(skiff, "skipper");
    assertEquals([skipper.resume?.state, skipper.agent], ["skipped", null]);
    assertMatch(skipper.resume!.why!, /the Skiff agent continues its last conversation/);
    await skiff.ok([
      "keys",
      "skipper",
      `FAKE_LOG=${rig.agentLog} FAKE_TURN_MS=400 ${Deno.execPath()} run -A -q ${FAKE_AGENT}`,
      "Enter",
    ]);
    await waitPrompt(rig, new RegExp(`\\[watch\\] pane rev ${uid} is interrupted`), 40_000);
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);
    // The resumed agent's turns are news of a pane no task follows any more.
    await turn(skiff, "rev", "another task after the crash");
    await skiff.ok(["wait", "skipper", "--until", "idle", "--timeout", "20"]);
    const prompts = await agentPrompts(rig);
    assertEquals(
      prompts.filter((p) => p.includes(`${uid} is interrupted`)).length,
      1,
      prompts.join("\n"),
    );
  });
});

Deno.test("an agent that cannot resume, started as a pane's process, comes back as a shell that says why", async () => {
  await withSkiff(async (skiff) => {
    const work = join(skiff.root, "work");
    await Deno.mkdir(work);
    // The fake agent again, as a custom agent with no resume_args.
    const plain = fakeAgentToml().filter((line) => !line.startsWith("resume_"))
      .map((line) => line.replace("[agents.fake]", "[agents.plain]"));
    await useFakeAgent(skiff, { extra: plain.join("\n") });
    await skiff.ok(["new", "--agent", "plain", "--cwd", work]);
    await skiff.ok(["wait", "plain", "--until", "idle", "--timeout", "30"]);
    await crash(skiff);
    const info = await waitFor("the restore", async () => {
      const p = await pane(skiff, "plain");
      return p.resume ? p : undefined;
    });
    assertEquals([info.resume!.state, info.agent, info.conversation], ["skipped", null, null]);
    assertMatch(
      await skiff.ok(["explain", "plain"]),
      /after the restore, plain not resumed: Fake Agent has no way to resume a conversation by its id/,
    );
  });
});
