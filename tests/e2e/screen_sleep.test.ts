/**
 * Sleeping screens, through the real program: a quiet, unattached pane's
 * screen goes to sleep (`[daemon] screen_sleep_seconds`), listings do not
 * wake it, and everything a person sees of it is the same before and after:
 * its capture with history and colours, an attached terminal's redraw and
 * history, output that follows, a restore after `kill -9`, an upgrade.
 */

import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";
import { DaemonClient } from "../../lib/client/client.ts";

/** Prints t0, t1, … every 5 ms, for as long as it runs. */
const TICKER = ["sh", "-c", "i=0; while :; do echo t$i; i=$((i+1)); sleep 0.005; done"];

/** Prints 300 coloured lines, sets a title and waits at a prompt. */
const HISTORY = [
  ...BASH,
  "-c",
  `for i in $(seq 1 300); do printf '\\033[3%dmline %d\\033[0m of the history\\n' $((i%8)) $i; done; ` +
  `printf '\\033]2;sleepy title\\007'; PS1='$ ' exec bash --norc --noprofile`,
];

async function screens(skiff: SkiffEnv): Promise<NonNullable<DaemonStatus["screens"]>> {
  return (await skiff.json<DaemonStatus>(["daemon", "status"])).screens!;
}

async function asleep(skiff: SkiffEnv, count: number): Promise<void> {
  await waitFor(`${count} screens asleep`, async () => (await screens(skiff)).asleep === count, {
    timeout: 20_000,
  });
}

async function sleepyConfig(skiff: SkiffEnv): Promise<void> {
  await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
  await Deno.writeTextFile(skiff.configFile, "[daemon]\nscreen_sleep_seconds = 1\n");
}

Deno.test("screen sleep: a quiet pane sleeps, listings leave it asleep, and its capture, an attach and more output are as if it never slept", async () => {
  await withSkiff(async (skiff) => {
    await sleepyConfig(skiff);
    await skiff.ok(["new", "--name", "web", "--", ...HISTORY]);
    await skiff.waitForScreen("web", /^\$ ?$/m);
    const before = await skiff.ok(["capture", "web", "--scrollback", "1000", "--ansi"]);
    assert(before.includes("\x1b[0;31mline\x1b[0m \x1b[0;31m1\x1b[0m of the history"), "colours");
    await asleep(skiff, 1);
    const slept = await screens(skiff);

    // What lists and tells the state reads the sleeping screen's summary.
    const listed = await skiff.json<{ panes: { title: string }[] }>(["ls"]);
    assertEquals(listed.panes[0].title, "sleepy title");
    await skiff.ok(["wait", "web", "--until", "idle", "--timeout", "5"]).catch(() => "");
    assertEquals((await screens(skiff)).wakes, slept.wakes, "ls and wait did not wake it");

    assertEquals(await skiff.ok(["capture", "web", "--scrollback", "1000", "--ansi"]), before);
    assertEquals((await screens(skiff)).wakes, slept.wakes! + 1, "a capture woke it");

    // Asleep again, an attached terminal gets the screen and its history as before.
    await asleep(skiff, 1);
    const term = await TestTerminal.start([
      Deno.execPath(),
      "run",
      "-A",
      "-q",
      MAIN,
      "attach",
      "web",
    ], {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 80,
      rows: 24,
    });
    try {
      await term.waitForText(/line 300 of the history/);
      term.type("echo after-$((40+2))\r");
      await term.waitForText(/^after-42$/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
    const after = await skiff.ok(["capture", "web", "--scrollback", "1000", "--ansi"]);
    assert(after.startsWith(before.trimEnd()), "the history before the sleep is whole");
    assertMatch(after, /^after-42$/m);
  });
});

Deno.test("screen sleep: sleeping screens are handed over whole by an upgrade and come back after kill -9", async () => {
  await withSkiff(async (skiff) => {
    await sleepyConfig(skiff);
    await skiff.ok(["new", "--name", "web", "--", ...HISTORY]);
    await skiff.ok(["new", "--name", "api", "--", ...HISTORY]);
    await skiff.waitForScreen("web", /^\$ ?$/m);
    await skiff.waitForScreen("api", /^\$ ?$/m);
    const web = await skiff.ok(["capture", "web", "--scrollback", "1000", "--ansi"]);
    await asleep(skiff, 2);

    const upgraded = await skiff.json<{ panes: number }>(["daemon", "upgrade"]);
    assertEquals(upgraded.panes, 2);
    // Handed over asleep, they are adopted asleep: nothing was parsed yet.
    const handed = await screens(skiff);
    assertEquals([handed.asleep, handed.wakes], [2, 0]);
    assertEquals(await skiff.ok(["capture", "web", "--scrollback", "1000", "--ansi"]), web);
    assertEquals(
      (await skiff.json<{ panes: { title: string }[] }>(["ls"])).panes[1].title,
      "sleepy title",
    );

    await asleep(skiff, 2);
    const pid = (await skiff.json<DaemonStatus>(["daemon", "status"])).pid;
    Deno.kill(pid, "SIGKILL");
    await skiff.ok(["ls"]);
    await skiff.waitForScreen("api", /skiffd restarted/);
    const history = await skiff.ok(["capture", "api", "--scrollback", "1000"]);
    assertMatch(history, /^line 1 of the history$/m);
    assertMatch(history, /^line 300 of the history$/m);
  });
});

Deno.test("an upgrade hands over which screens were not saved yet: the new skiffd saves them, so a kill -9 after it loses nothing", async () => {
  const full = join(await Deno.makeTempDir(), "disk-full");
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    await skiff.waitForScreen("web", /[$#] ?$/m);
    // The old skiffd cannot save what comes now (its disk is full).
    await Deno.writeTextFile(full, "");
    await skiff.ok(["keys", "web", "echo printed-before-the-$((6*7))-upgrade", "Enter"]);
    await skiff.waitForScreen("web", /^printed-before-the-42-upgrade$/m);
    await waitFor("a failed save", async () => (await screens(skiff)).failures! > 0);
    assertEquals((await skiff.json<{ panes: number }>(["daemon", "upgrade"])).panes, 1);
    const saves = (await screens(skiff)).saves;
    await Deno.remove(full);
    // Nothing printed since: the new skiffd saves the screen because it was handed over unsaved.
    await waitFor("the new skiffd's save", async () => (await screens(skiff)).saves > saves);
    Deno.kill((await skiff.json<DaemonStatus>(["daemon", "status"])).pid, "SIGKILL");
    await skiff.ok(["ls"]);
    await skiff.waitForScreen("web", /skiffd restarted/);
    assertMatch(
      await skiff.ok(["capture", "web", "--scrollback", "100"]),
      /^printed-before-the-42-upgrade$/m,
    );
  }, { SKIFF_FAULT_FULL_DISK: full });
});

Deno.test("screen sleep: a pane that prints a line every 5 ms does not hold the quiet screens awake", async () => {
  // Each quiet screen is 3,000 coloured lines: tens of ms to save and to put to sleep. While any
  // output at all kept saving and sleeping to 5% of skiffd's time, these took minutes.
  const QUIET = 100;
  const long = [
    "sh",
    "-c",
    `i=1; while [ $i -le 3000 ]; do printf '\\033[3%dmline %d\\033[0m of a long history\\n' ` +
    `$((i%8)) $i; i=$((i+1)); done; exec sh`,
  ];
  await withSkiff(async (skiff) => {
    await sleepyConfig(skiff);
    await skiff.ok(["daemon", "start"]);
    const client = await DaemonClient.connect(skiff.socket);
    try {
      for (let i = 0; i < QUIET; i++) {
        await client.call("pane.new", { command: long, cwd: skiff.root, name: `q${i}` });
      }
    } finally {
      client.close();
    }
    await skiff.ok(["new", "--name", "ticker", "--", ...TICKER]);
    await waitFor(`${QUIET} quiet screens asleep`, async () => {
      return (await screens(skiff)).asleep === QUIET;
    }, { timeout: 45_000, interval: 500 });
    // The ticker printed all along: its screen stayed awake.
    const ticks = await skiff.ok(["capture", "ticker"]);
    assertMatch(ticks, /^t\d+$/m);
    assertEquals((await screens(skiff)).asleep, QUIET);
  });
});
