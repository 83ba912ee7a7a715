/**
 * What a pane keeps through a restart or a crash of skiffd (issue 21, items
 * 3 and 4): an exited pane stays exited with its code and last screen until
 * `skiff kill`; a restored pane shows the old process's last screen and
 * history above its new shell, with a line that marks where the new shell
 * starts. Saved screens are state: 0600 files in a 0700 folder, removed with
 * the pane, and a broken one is ignored with one log line.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  const found = panes.find((p) => p.name === name);
  assert(found, `pane ${name} is listed`);
  return found;
}

function screensDir(skiff: SkiffEnv): string {
  return join(skiff.env.SKIFF_STATE_DIR, "skiffd.screens");
}

/** Waits until the saved screen of pane `id` (screen file and history) holds `text`. */
async function savedHolds(skiff: SkiffEnv, id: string, text: string): Promise<void> {
  await waitFor(`pane ${id}'s saved screen to hold ${text}`, async () => {
    const read = (name: string) => Deno.readTextFile(join(screensDir(skiff), name)).catch(() => "");
    const both = (await read(`${id}.history`)) + (await read(`${id}.screen`));
    return both.includes(text);
  }, { timeout: 15_000 });
}

/** Kills skiffd with SIGKILL and waits until it and pane `pid`s are gone. */
async function crash(skiff: SkiffEnv, pids: number[] = []): Promise<void> {
  const pid = (await skiff.daemonPid())!;
  Deno.kill(pid, "SIGKILL");
  await waitFor("skiffd to die", () => !pidAlive(pid));
  for (const child of pids) await waitFor(`process ${child} to end`, () => !pidAlive(child));
}

Deno.test("an exited pane stays exited, with its code and last screen, through stop and start and kill -9, until skiff kill", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "done", "--", "true"]);
    await skiff.ok(["new", "--name", "said", "--", "bash", "-c", "echo last words here; exit 3"]);
    await waitFor("both to exit", async () => {
      const a = await pane(skiff, "done");
      const b = await pane(skiff, "said");
      return a.status === "exited" && b.status === "exited";
    });
    assertMatch(await skiff.ok(["ls"]), /done .*exited \(0\)/);

    const check = async (when: string) => {
      const done = await pane(skiff, "done");
      const said = await pane(skiff, "said");
      assertEquals([done.status, done.state, done.exit_code, done.pid], [
        "exited",
        "exited",
        0,
        null,
      ], when);
      assertEquals([said.status, said.exit_code], ["exited", 3], when);
      assertMatch(await skiff.ok(["ls"]), /done .*exited \(0\)/, when);
      assertMatch(await skiff.ok(["capture", "said"]), /^last words here$/m, when);
    };
    await check("before any restart");
    const generation = (await pane(skiff, "said")).generation;

    await skiff.ok(["daemon", "stop"]);
    await check("after a stop and a start");
    assertEquals(
      (await pane(skiff, "said")).generation,
      generation,
      "no new process: same generation",
    );

    await crash(skiff);
    await check("after kill -9");

    await skiff.ok(["daemon", "restart"]);
    await check("after a restart");

    await skiff.ok(["kill", "said"]);
    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    assertEquals(panes.map((p) => p.name), ["done"]);
    const left = [...Deno.readDirSync(screensDir(skiff))].map((e) => e.name).sort();
    assertEquals(left.filter((n) => n.startsWith("p2.")), [], "kill removes the saved screen");
    await skiff.ok(["daemon", "stop"]);
    assertEquals((await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.map((p) => p.name), [
      "done",
    ]);
  });
});

Deno.test("after kill -9, a restored pane shows the old history and last screen above its new shell, with a marker, in capture and in an attached terminal", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "work", "--", ...BASH]);
    await skiff.ok([
      "keys",
      "work",
      "for i in $(seq 1 120); do printf '\\033[32mold line %s\\033[0m\\n' $i; done",
      "Enter",
    ]);
    await skiff.waitForScreen("work", /^old line 120$/m);
    await savedHolds(skiff, "p1", "old line 120");
    const before = await pane(skiff, "work");
    await crash(skiff, [before.pid!]);

    const after = await pane(skiff, "work");
    assert(after.generation > before.generation);
    await skiff.ok(["keys", "work", "echo new shell here", "Enter"]);
    await skiff.waitForScreen("work", /^new shell here$/m);
    const lines = (await skiff.ok(["capture", "work", "--scrollback", "1000"])).split("\n");
    const marker = lines.findIndex((l) => /^── skiffd restarted .*a new shell starts here/.test(l));
    assert(marker > 0, `a marker line:\n${lines.join("\n")}`);
    assertEquals(lines.filter((l) => /^old line \d+$/.test(l)).length, 120, "every old line");
    assert(lines.indexOf("old line 120") < marker, "the old lines are above the marker");
    assert(lines.findIndex((l) => l === "new shell here") > marker, "the new shell is below");
    const ansi = await skiff.ok(["capture", "work", "--scrollback", "1000", "--ansi"]);
    assertMatch(ansi, /\x1b\[[0-9;]*32mold\b/, "colours are kept");

    // An attached terminal shows the old screen above the new prompt.
    const term = await TestTerminal.start([
      Deno.execPath(),
      "run",
      "-A",
      "-q",
      MAIN,
      "attach",
      "work",
    ], {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 120,
      rows: 40,
    });
    try {
      const shown = await term.waitForText(/skiffd restarted[\s\S]*new shell here/);
      assertMatch(shown, /^old line 1[01]\d$/m);
    } finally {
      term.type("\x1c");
      await term.exited;
    }

    // Another crash keeps both generations' history, each marked.
    await savedHolds(skiff, "p1", "new shell here");
    await crash(skiff, [after.pid!]);
    const twice = await skiff.ok(["capture", "work", "--scrollback", "1000"]);
    assertEquals(twice.match(/── skiffd restarted/g)?.length, 2, twice);
    assertMatch(twice, /old line 120[\s\S]*new shell here[\s\S]*skiffd restarted/);
  });
});

Deno.test("a full-screen program's last screen shows as history after a restart", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "tui", "--", ...BASH]);
    await skiff.ok(["keys", "tui", "echo before the app", "Enter"]);
    await skiff.ok([
      "keys",
      "tui",
      "printf '\\033[?1049h\\033[HFULL SCREEN APP\\n  working on it'; sleep 600",
      "Enter",
    ]);
    await skiff.waitForScreen("tui", /working on it/);
    await savedHolds(skiff, "p1", "working on it");
    await skiff.ok(["daemon", "restart"]);
    const text = await skiff.ok(["capture", "tui", "--scrollback", "200"]);
    assertMatch(
      text,
      /before the app[\s\S]*FULL SCREEN APP\n {2}working on it\n── skiffd restarted/,
    );
    assertEquals((await pane(skiff, "tui")).state, "shell");
  });
});

Deno.test("saved screens are 0600 in a 0700 folder; a garbage or half-written one is ignored with one log line", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "a", "--", ...BASH]);
    await skiff.ok(["new", "--name", "b", "--", ...BASH]);
    await skiff.ok(["keys", "a", "echo alpha", "Enter"]);
    await skiff.ok(["keys", "b", "echo beta", "Enter"]);
    await savedHolds(skiff, "p1", "alpha");
    await savedHolds(skiff, "p2", "beta");
    const dir = screensDir(skiff);
    assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
    for (const entry of Deno.readDirSync(dir)) {
      assertEquals(Deno.statSync(join(dir, entry.name)).mode! & 0o777, 0o600, entry.name);
    }
    await skiff.ok(["daemon", "stop"]);
    // p1: not JSON at all; p2: a screen file that counts more history than there is.
    await Deno.writeTextFile(join(dir, "p1.screen"), "\x00garbage{");
    const p2 = JSON.parse(await Deno.readTextFile(join(dir, "p2.screen")));
    p2.history_bytes = 1_000_000;
    await Deno.writeTextFile(join(dir, "p2.screen"), JSON.stringify(p2));
    // A temporary file of a write a crash cut off, and the screen of a pane that is gone.
    await Deno.writeTextFile(join(dir, "p1.screen.tmp-1-abcdef12"), "half");
    await Deno.writeTextFile(join(dir, "p9.screen"), "{}");

    await skiff.ok(["ls"]);
    for (const name of ["a", "b"]) {
      const text = await skiff.ok(["capture", name, "--scrollback", "100"]);
      assertMatch(text, /── skiffd restarted/, "the marker shows even without the old screen");
      assert(!text.includes("alpha") && !text.includes("beta"), text);
    }
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertEquals(log.match(/pane p1: its saved screen .* is unreadable/g)?.length, 1, log);
    assertEquals(log.match(/pane p2: its saved screen .* is unreadable/g)?.length, 1, log);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert(!names.includes("p9.screen") && !names.some((n) => n.includes(".tmp-")), names.join());
  });
});
