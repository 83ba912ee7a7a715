/**
 * End-to-end tests of `skiff skipper` with the fake agent as the Skiff agent:
 * the first open in a real terminal, a second open, four opens at once,
 * adoption, the start line after a kill -9 of skiffd, the 15-second guard,
 * and setup keeping the person's edits.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { exists, files } from "../helpers/ledger.ts";
import { pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import {
  allPanes,
  marksOf,
  openJson,
  SETUP_NAMES,
  skipperDir,
  skipperTerminal,
  starts,
  useFakeSkipper,
} from "../helpers/skipper.ts";
import { START_GUARD_MS, START_LINE_MARK } from "../../lib/skipper/marks.ts";

async function bareShell(skiff: SkiffEnv, pane: string): Promise<void> {
  await waitFor(`pane ${pane} to be a bare shell`, async () => {
    const p = (await allPanes(skiff)).find((p) => p.id === pane);
    return p?.state === "shell" && p.foreground?.pid === p.pid;
  }, { timeout: 20_000 });
}

/** Opens the fake agent as the Skiff agent and waits until it is idle; returns its pane. */
async function startedSkipper(skiff: SkiffEnv): Promise<string> {
  await useFakeSkipper(skiff);
  const pane = (await openJson(skiff)).pane!.id;
  await idle(skiff, pane);
  return pane;
}

/** The fake agent in `pane` quits, leaving its session a bare shell. */
async function quitAgent(skiff: SkiffEnv, pane: string): Promise<void> {
  await skiff.ok(["send", pane, "EXIT", "--enter"]).catch(() => {});
  await bareShell(skiff, pane);
}

async function idle(skiff: SkiffEnv, pane: string): Promise<void> {
  await skiff.ok(["wait", pane, "--until", "idle", "--timeout", "30"]);
}

Deno.test("skipper: off says how to turn it on (exit 5); an unknown agent (exit 3) and a folder with other files (exit 2) are refused", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff, { enabled: false });
    for (const args of [["skipper"], ["skipper", "--json"]]) {
      const off = await skiff.run(args);
      assertEquals(off.code, 5, off.stderr);
      assertMatch(
        off.stderr,
        /The Skiff agent is off\. Turn it on with 'skiff settings set enabled true'/,
      );
    }
    assert(!(await skiff.daemonPid()), "nothing was started");
    await useFakeSkipper(skiff, { agent: "nope" });
    const unknown = await skiff.run(["skipper", "--json"]);
    assertEquals(unknown.code, 3, unknown.stderr);
    assertMatch(unknown.stderr, /No agent 'nope' for the Skiff agent/);
    assert(!(await exists(skipperDir(skiff))), "the folder was not touched");
    await useFakeSkipper(skiff);
    await Deno.mkdir(skipperDir(skiff));
    await Deno.writeTextFile(join(skipperDir(skiff), "notes.txt"), "mine\n");
    const refused = await skiff.run(["skipper", "--json"]);
    assertEquals(refused.code, 2);
    assertMatch(
      JSON.parse(refused.stderr).error.message,
      /holds files that are not the Skiff agent's/,
    );
    assertEquals(await files(skipperDir(skiff)), ["notes.txt"]);
  });
});

Deno.test("skipper: the first open sets up, starts and attaches; Ctrl+\\ detaches; a second open attaches the same session", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    const term = await skipperTerminal(skiff);
    try {
      // Attached: the terminal shows the agent, started by the open.
      await term.waitForText(/Fake Agent 1\.0/, { timeout: 30_000 });
      const [pane] = await allPanes(skiff);
      await idle(skiff, pane.id);
      assertEquals([pane.name, pane.session_name, pane.cwd], [
        "Skipper",
        "Skipper",
        skipperDir(skiff),
      ]);
      assertEquals((await allPanes(skiff))[0].attached, 1);
      assertEquals((await marksOf(skiff, pane.id))["skiff-agent"], "1", "the session is marked");
      assertEquals(await starts(skiff), ["start "], "started once, as a new conversation");
      // The folder is set up and Skiff's copy of the skill is there.
      assertEquals(await files(skipperDir(skiff)), SETUP_NAMES);
      const skill = join(skiff.env.SKIFF_CONFIG_DIR, "skills", "skiff-cli", "SKILL.md");
      const builtIn = new URL("../../skills/skiff-cli/SKILL.md", import.meta.url);
      assertEquals(await Deno.readTextFile(skill), await Deno.readTextFile(builtIn));
      assertEquals(
        await Deno.readTextFile(join(skipperDir(skiff), ".agents/skills/skiff-cli/SKILL.md")),
        await Deno.readTextFile(builtIn),
      );
      assertMatch(await Deno.readTextFile(join(skipperDir(skiff), "AGENTS.md")), /^# Skipper\n/);
      // Typing reaches the agent; Ctrl+\ detaches and the agent keeps running.
      term.type("hello");
      await skiff.waitForScreen(pane.id, /^> hello/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from Skipper \(p1\); 'skiff skipper' attaches again\]/);
    } finally {
      term.kill();
    }
    const [after] = await allPanes(skiff);
    assertEquals([after.status, after.agent, after.attached], ["running", "fake", 0]);

    const second = await skipperTerminal(skiff);
    try {
      await second.waitForText(/^> hello/m);
      const panes = await allPanes(skiff);
      assertEquals(panes.map((p) => [p.id, p.attached]), [["p1", 1]], "the same session");
      second.type("\x1c");
      assertEquals(await second.exited, 0);
    } finally {
      second.kill();
    }
    assertEquals(await starts(skiff), ["start "], "the second open typed nothing");
    const status = await skiff.json<{ running: boolean; state: string; pane: { id: string } }>([
      "skipper",
      "status",
    ]);
    assertEquals([status.running, status.state, status.pane.id], [true, "idle", "p1"]);
    // skiffd started the watcher for the marked session; status reports its health.
    const health = await waitFor("the watcher to run", async () => {
      const s = await skiff.json<{ watcher: { running: boolean; ok: boolean } | null }>([
        "skipper",
        "status",
      ]);
      return s.watcher?.running ? s.watcher : undefined;
    });
    assertEquals(health.ok, true);
  });
});

Deno.test("skipper: four opens at once start one session and type one start line", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    // skiffd is not running either: the four start it together.
    const opened = await Promise.all([1, 2, 3, 4].map(() => openJson(skiff)));
    const sessions = new Set(opened.map((o) => o.session?.id));
    assertEquals(sessions.size, 1, `one session: ${[...sessions]}`);
    assertEquals(opened.filter((o) => o.how === "created").length, 1);
    assertEquals(opened.filter((o) => o.start.typed === "start").length, 1);
    const panes = await allPanes(skiff);
    assertEquals(panes.length, 1);
    await idle(skiff, panes[0].id);
    assertEquals(await starts(skiff), ["start "]);
  });
});

Deno.test("skipper: a live agent session with the name in the folder is adopted and marked", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    await Deno.mkdir(skipperDir(skiff));
    const elsewhere = join(skiff.root, "elsewhere");
    await Deno.mkdir(elsewhere);
    // One in another folder (not adopted) and one in the folder (adopted).
    await skiff.ok(["new", "--agent", "fake", "--name", "Skipper", "--cwd", elsewhere]);
    await skiff.ok(["kill", "Skipper"]);
    await skiff.ok(["new", "--agent", "fake", "--name", "Skipper", "--cwd", skipperDir(skiff)]);
    const [pane] = (await allPanes(skiff)).filter((p) => p.name === "Skipper");
    await idle(skiff, pane.id);
    assertEquals(await marksOf(skiff, pane.id), {}, "unmarked before the open");
    const opened = await openJson(skiff);
    assertEquals([opened.how, opened.pane?.id, opened.start.typed], ["adopted", pane.id, null]);
    assertEquals((await marksOf(skiff, pane.id))["skiff-agent"], "1");
    assertEquals((await openJson(skiff)).how, "found");
    assertEquals((await starts(skiff)).length, 2, "only the two 'skiff new' starts");
  });
});

Deno.test("skipper: a shell left in another folder or with no agent is not adopted", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    await Deno.mkdir(skipperDir(skiff));
    await skiff.ok(["new", "--name", "Skipper", "--cwd", skipperDir(skiff), "--", "bash"]);
    const opened = await openJson(skiff);
    assertEquals(opened.how, "created");
    assert(opened.pane?.name !== "Skipper", `a new, unique name: ${opened.pane?.name}`);
    assertEquals((await allPanes(skiff)).length, 2);
  });
});

for (const continueArgs of ["--resume-last", undefined]) {
  const what = continueArgs ? "the continue line" : "a start line (no continue line)";
  Deno.test(`skipper: a kill -9 of skiffd within 15 s of the start line: the next open restores the session and types ${what} at once, and only once`, async () => {
    await withSkiff(async (skiff) => {
      await useFakeSkipper(skiff, { continueArgs });
      const first = await openJson(skiff);
      assertEquals(first.start.typed, "start", "a new session starts a new conversation");
      await idle(skiff, first.pane!.id);
      // The crash comes while the first start line is still guarded: the guard is its shell's.
      const typedAt = Number((await marksOf(skiff, "p1"))[START_LINE_MARK].split("@")[0]);
      assert(Date.now() - typedAt < START_GUARD_MS, "the first start line is still guarded");
      // The agent of the pane that the kill -9 orphans (skiffd is not there to end it).
      const orphan = (await allPanes(skiff))[0].foreground!.pid;
      const pid = (await skiff.daemonPid())!;
      Deno.kill(pid, "SIGKILL");
      await waitFor("skiffd to die", () => !pidAlive(pid));
      try {
        await waitFor("the orphaned agent to go", () => !pidAlive(orphan), { timeout: 2000 });
      } catch {
        // The fake agent can stop itself on the hang-up; it is not the open's to end.
        Deno.kill(orphan, "SIGKILL");
      }

      // The open starts skiffd; the restored pane is a bare shell in the marked session.
      const again = await openJson(skiff);
      assertEquals([again.how, again.pane?.id, again.session?.id], [
        "found",
        "p1",
        first.session?.id,
      ]);
      // A custom agent with no continue line starts a new conversation, which is fine.
      assertEquals(again.start, {
        typed: continueArgs ? "continue" : "start",
        why: null,
        waited_ms: 0,
      });
      await idle(skiff, "p1");
      assertEquals(await starts(skiff), ["start ", `start ${continueArgs ?? ""}`]);
      // A second open right after finds the agent running and types nothing more.
      const third = await openJson(skiff);
      assertEquals(third.start.typed, null);
      assertMatch(third.start.why!, /Fake Agent runs in it/);
      assertEquals((await starts(skiff)).length, 2);
      const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
      assertMatch(
        log,
        /pane p1 \(Skipper\) restored/,
        "the daemon the open started logs beside the socket",
      );
    });
  });
}

Deno.test("skipper: an open within 15 s of a start line waits the guard out, checks again, and types the line into a shell that is still bare", async () => {
  await withSkiff(async (skiff) => {
    const pane = await startedSkipper(skiff);
    // The agent quits: the session is a bare shell again.
    await quitAgent(skiff, pane);
    const typedAt = Number((await marksOf(skiff, pane))[START_LINE_MARK].split("@")[0]);
    assert(Date.now() - typedAt < START_GUARD_MS, "the first start line is still guarded");
    const guarded = await openJson(skiff);
    assertEquals(guarded.start.typed, "start");
    assert(guarded.start.waited_ms! > 0, "the open waited for the guard");
    const typedAgain = Number((await marksOf(skiff, pane))[START_LINE_MARK].split("@")[0]);
    assert(typedAgain - typedAt >= START_GUARD_MS, "the line went in once the guard was over");
    await idle(skiff, pane);
    assertEquals((await starts(skiff)).length, 2);
  });
});

Deno.test("skipper: nothing is typed while a program other than the shell is in front", async () => {
  await withSkiff(async (skiff) => {
    const pane = await startedSkipper(skiff);
    await quitAgent(skiff, pane);
    await skiff.ok(["keys", pane, "sleep 600", "Enter"]);
    await waitFor("sleep in front", async () => {
      const p = (await allPanes(skiff))[0];
      return p.foreground?.comm === "sleep";
    });
    await skiff.ok(["mark", pane, `${START_LINE_MARK}=0`]);
    const opened = await openJson(skiff);
    assertEquals(opened.start.typed, null);
    assertMatch(opened.start.why!, /a program \(sleep\) is in front of the shell/);
    assertEquals((await starts(skiff)).length, 1);
  });
});

Deno.test("skipper: setup keeps an edited AGENTS.md, puts back missing parts, and refreshes the skill", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff, { settings: ['name = "Mate"'] });
    const first = await openJson(skiff);
    const dir = skipperDir(skiff);
    assertMatch(await Deno.readTextFile(join(dir, "AGENTS.md")), /^# Mate\n\nYou are Mate/);
    await Deno.writeTextFile(join(dir, "AGENTS.md"), "# Mate, edited\n");
    await Deno.remove(join(dir, "CLAUDE.md"));
    await Deno.remove(join(dir, "results"));
    const skill = join(skiff.env.SKIFF_CONFIG_DIR, "skills", "skiff-cli", "SKILL.md");
    await Deno.writeTextFile(skill, "an old skill\n");
    await openJson(skiff);
    assertEquals(await Deno.readTextFile(join(dir, "AGENTS.md")), "# Mate, edited\n");
    assertEquals(await Deno.readLink(join(dir, "CLAUDE.md")), "AGENTS.md");
    assertEquals(await files(dir), SETUP_NAMES);
    const builtIn = new URL("../../skills/skiff-cli/SKILL.md", import.meta.url);
    assertEquals(await Deno.readTextFile(skill), await Deno.readTextFile(builtIn));
    assertEquals(first.pane?.name, "Mate");
  });
});

Deno.test("skipper: a marked session whose shell has exited is replaced by a new one", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    const first = await openJson(skiff);
    await idle(skiff, "p1");
    await quitAgent(skiff, "p1");
    await skiff.ok(["keys", "p1", "exit", "Enter"]);
    await skiff.ok(["wait", "p1", "--until", "exited", "--timeout", "20"]);
    const again = await openJson(skiff);
    assertEquals([again.how, again.pane?.id, again.start.typed], ["created", "p2", "start"]);
    assert(again.session?.id !== first.session?.id, "a new session");
    assertEquals((await allPanes(skiff)).map((p) => p.id), ["p2"], "the exited pane is gone");
    assertEquals((await marksOf(skiff, "p2"))["skiff-agent"], "1");
    await idle(skiff, "p2");
  });
});

Deno.test("skipper: an agent missing from the PATH is refused before a session is made (exit 3); a running session still opens", async () => {
  await withSkiff(async (skiff) => {
    const pane = await startedSkipper(skiff);
    // The agent's program goes away while its session runs.
    await Deno.rename(join(skiff.root, "fake-agent.sh"), join(skiff.root, "fake-agent.sh.gone"));
    const found = await openJson(skiff);
    assertEquals([found.how, found.pane?.id], ["found", pane]);
    // The agent quits: a bare shell gets no start line that would only fail.
    await quitAgent(skiff, pane);
    await skiff.ok(["mark", pane, `${START_LINE_MARK}=0`]);
    const bare = await openJson(skiff);
    assertEquals(bare.start.typed, null);
    assertMatch(bare.start.why!, /Fake Agent \('.*fake-agent\.sh'\) is not on the PATH/);
    assertEquals((await starts(skiff)).length, 1);
    // With no session to open, nothing is made.
    await skiff.ok(["kill", pane]);
    const refused = await skiff.run(["skipper", "--json"]);
    assertEquals(refused.code, 3, refused.stderr);
    assertMatch(
      refused.stderr,
      /Cannot start the Skiff agent: Fake Agent \('.*fake-agent\.sh'\) is not on the PATH\. Install it, or pick another agent with 'skiff settings set agent ID'/,
    );
    assertEquals(await allPanes(skiff), []);
  });
});
