/**
 * `skiff daemon upgrade` end to end: skiffd becomes another program in
 * place and every pane runs on: same pids and generations, whole screens,
 * output in order with nothing missing, exits still seen with their codes,
 * followers and attached terminals following on.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { EventStream } from "../helpers/events.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo, ScreenSnapshot } from "../../lib/protocol/panes.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";
import { dirname } from "node:path";
import { PROTOCOL_VERSION, VERSION } from "../../lib/version.ts";
import { DaemonClient } from "../../lib/client/client.ts";

/** A pane that prints n0, n1, … every 20 ms. */
const COUNTER = [...BASH, "-c", "i=0; while :; do echo n$i; i=$((i+1)); sleep 0.02; done"];

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** The numbers the counter pane printed so far, from its screen and history. */
async function counted(skiff: SkiffEnv, pane: string): Promise<number[]> {
  const text = await skiff.ok(["capture", pane, "--scrollback", "100000"]);
  return [...text.matchAll(/^n(\d+)$/gm)].map((m) => Number(m[1]));
}

/** Asserts that the counter printed 0…n with nothing missing, and returns n. */
function assertUnbroken(numbers: number[]): number {
  assertEquals(numbers[0], 0, "the counter's first line is kept");
  const gap = numbers.findIndex((n, i) => n !== i);
  assertEquals(gap, -1, `no number missing or twice (first wrong at ${gap}: ${numbers[gap]})`);
  return numbers.length - 1;
}

/** Waits until the counter passes `beyond`. */
async function countsPast(skiff: SkiffEnv, pane: string, beyond: number): Promise<number[]> {
  return await waitFor(`the counter to pass ${beyond}`, async () => {
    const numbers = await counted(skiff, pane);
    return numbers.length > beyond + 5 ? numbers : undefined;
  }, { timeout: 20_000 });
}

Deno.test("upgrade: a counter keeps its pid and counts on with no number missing; an exit is seen with its code", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "count", "--", ...COUNTER]);
    await skiff.ok(["new", "--name", "quits", "--", ...BASH, "-c", "read line; exit 3"]);
    await skiff.ok(["new", "--name", "done", "--", ...BASH, "-c", "echo bye; exit 5"]);
    await waitFor(
      "pane done to exit",
      async () => (await panes(skiff)).find((p) => p.name === "done")?.status === "exited",
    );
    const before = await panes(skiff);
    const daemon = (await skiff.json<DaemonStatus>(["daemon", "status"])).pid;
    const first = await countsPast(skiff, "count", 20);

    const result = await skiff.json<
      { upgraded: boolean; from: string; version: string; pid: number; panes: number }
    >(["daemon", "upgrade"]);
    assertEquals([result.upgraded, result.pid, result.panes], [true, daemon, 3]);

    // Same processes, same generations: nothing was restarted.
    const after = await panes(skiff);
    for (const pane of before) {
      const now = after.find((p) => p.id === pane.id)!;
      assertEquals(
        [now.pid, now.generation, now.status],
        [pane.pid, pane.generation, pane.status],
        pane.name,
      );
    }
    const done = after.find((p) => p.name === "done")!;
    assertEquals([done.exit_code, done.status], [5, "exited"], "an exit before stays told");
    assert((await skiff.ok(["capture", "done"])).includes("bye"));

    // The counter went on through the upgrade, every number once and in order.
    const numbers = await countsPast(skiff, "count", first.length + 50);
    assertUnbroken(numbers);
    const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
    assertEquals(status.pid, daemon);
    assertEquals(status.upgrade?.ok, true);

    // A process that ends after the upgrade is still seen, with its exit code.
    await skiff.ok(["keys", "quits", "Enter"]);
    const quits = await waitFor("pane quits to exit", async () => {
      const pane = (await panes(skiff)).find((p) => p.name === "quits")!;
      return pane.status === "exited" ? pane : undefined;
    }, { timeout: 15_000 });
    assertEquals(quits.exit_code, 3);
  });
});

Deno.test("upgrade: vim keeps its screen, modes and the shell's screen beneath", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "ed", "--size", "80x24", "--", ...BASH]);
    await skiff.ok(["keys", "ed", "echo shell-line-before-vim", "Enter"]);
    await skiff.waitForScreen("ed", /^shell-line-before-vim$/m);
    const file = `${skiff.root}/notes.txt`;
    await Deno.writeTextFile(file, Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n"));
    await skiff.ok(["keys", "ed", `vim -u NONE -N ${file}`, "Enter"]);
    await skiff.waitForScreen("ed", /^line 22$/m);
    await skiff.ok(["keys", "ed", "11G", "i", "X-INSERTED-X", "Escape"]);
    // vim leaves insert mode a moment after Escape: wait until two looks agree.
    type Capture = { lines: string[]; cursor: unknown; alternate: boolean };
    let last = "";
    const settled = await waitFor("vim to settle in normal mode", async () => {
      const now = await skiff.json<Capture>(["capture", "ed"]);
      const text = JSON.stringify(now);
      const done = text === last && now.lines.some((l) => l.startsWith("X-INSERTED-X")) &&
        !now.lines.some((l) => l.includes("-- INSERT --"));
      last = text;
      return done ? now : undefined;
    }, { interval: 300 });
    assert(settled.alternate, "vim draws on the alternate screen");

    await skiff.ok(["daemon", "upgrade"]);
    const after = await skiff.json<Capture>(["capture", "ed"]);
    assertEquals(after, settled, "the same screen, cursor and modes");

    // vim still answers, and leaving it shows the shell's screen from before it.
    await skiff.ok(["keys", "ed", ":q!", "Enter"]);
    await skiff.waitForScreen("ed", /^shell-line-before-vim$/m);
    await skiff.ok(["keys", "ed", "echo after-$((6*7))", "Enter"]);
    await skiff.waitForScreen("ed", /^after-42$/m);
  });
});

Deno.test("upgrade: into a second checkout with another version; events follow with nothing missed", async () => {
  const next = await makeCheckout({ version: "0.99.0" });
  try {
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "count", "--", ...COUNTER]);
      const stream = await EventStream.start(skiff);
      try {
        await skiff.ok(["rename", "count", "counter"]);
        await stream.next((e) => e.event === "pane-renamed");
        const text = await skiff.run(["daemon", "upgrade"], { main: next.main });
        assertEquals(text.code, 0, text.stderr);
        assertMatch(text.stdout, new RegExp(`skiffd upgraded ${VERSION} → 0\\.99\\.0 in place`));
        const status = await skiff.json<DaemonStatus & { client: { version: string } }>([
          "daemon",
          "status",
        ], { main: next.main });
        assertEquals(status.version, "0.99.0");
        assertEquals(status.client.version, "0.99.0");
        // The older skiff hints nothing about a newer skiffd.
        const old = await skiff.run(["ls"]);
        assertEquals(old.stderr, "");
        await skiff.ok(["rename", "counter", "count"], { main: next.main });
        const renamed = await stream.next((e) => e.event === "pane-renamed" && e.name === "count");
        const upgraded = await stream.next((e) => e.event === "daemon-upgraded");
        assertEquals([upgraded.from_version, upgraded.version], [VERSION, "0.99.0"]);
        const seen = stream.events.map((e) => e.event);
        assert(!seen.includes("resync"), `the run goes on, nothing to list again: ${seen}`);
        const seqs = stream.events.map((e) => e.seq as number);
        assertEquals(seqs, [...seqs].sort((a, b) => a - b), "in order");
        assertEquals(new Set(seqs).size, seqs.length, "none twice");
        assertEquals(
          seqs,
          Array.from({ length: seqs.length }, (_, i) => seqs[0] + i),
          "none missing",
        );
        assert((renamed.seq as number) > (upgraded.seq as number));
      } finally {
        await stream.stop();
      }
      assertUnbroken(await counted(skiff, "count"));
    });
  } finally {
    await next.remove();
  }
});

Deno.test("upgrade: an attached terminal reconnects by itself and types on", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    await skiff.ok(["keys", "web", "echo before-upgrade", "Enter"]);
    await skiff.waitForScreen("web", /^before-upgrade$/m);
    const term = await TestTerminal.start(
      [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "web"],
      { env: skiff.env, cwd: skiff.env.HOME, cols: 100, rows: 30 },
    );
    try {
      await term.waitForText(/^before-upgrade$/m);
      // Keys typed while the upgrade runs go in once, whenever they land.
      const upgrading = skiff.run(["daemon", "upgrade"]);
      for (const key of "echo during-$((1+1))\r") {
        term.type(key);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      assertEquals((await upgrading).code, 0);
      await term.waitForText(/^during-2$/m);
      await waitFor(
        "the terminal to attach again",
        async () => (await panes(skiff))[0].attached === 1 ? true : undefined,
      );
      term.type("echo typed-$((2+3))\r");
      await term.waitForText(/^typed-5$/m);
      await term.waitForText(/^before-upgrade$/m);
      const screen = await skiff.ok(["capture", "web"]);
      assertEquals(screen.match(/^during-2$/gm)?.length, 1, screen);
    } finally {
      term.kill();
    }
  });
});

Deno.test("daemon restart --keep-panes runs skiffd's own program again in place", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "count", "--", ...COUNTER]);
    const before = (await panes(skiff))[0];
    const first = await countsPast(skiff, "count", 10);
    const result = await skiff.json<{ kept_panes: boolean; pid: number; panes: number }>([
      "daemon",
      "restart",
      "--keep-panes",
    ]);
    assertEquals([result.kept_panes, result.panes], [true, 1]);
    const after = (await panes(skiff))[0];
    assertEquals([after.pid, after.generation], [before.pid, before.generation]);
    assertUnbroken(await countsPast(skiff, "count", first.length + 20));
  });
});

Deno.test("issue 28, case 9: upgrade and restart --keep-panes count the panes kept as daemon status does, exited ones apart", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--", ...BASH]);
    await skiff.ok(["new", "--name", "gone1", "--", ...BASH, "-c", "exit 0"]);
    await skiff.ok(["new", "--name", "gone2", "--", ...BASH, "-c", "exit 7"]);
    await waitFor(
      "two panes to exit",
      async () => (await panes(skiff)).filter((p) => p.status === "exited").length === 2,
    );
    const status = await skiff.ok(["daemon", "status"]);
    assertMatch(status, /, 4 panes \(2 running\),/);

    const upgraded = await skiff.ok(["daemon", "upgrade"]);
    assertMatch(upgraded, /in place \(pid \d+\), 4 panes kept \(2 running\); \d+ ms, /);
    assert(!upgraded.includes("kept running"), upgraded);
    const restarted = await skiff.ok(["daemon", "restart", "--keep-panes"]);
    assertMatch(
      restarted,
      /^skiffd restarted in place \(pid \d+\), 4 panes kept \(2 running\); \d+ ms$/m,
    );
    const json = await skiff.json<{ panes: number; running_panes: number }>(
      ["daemon", "upgrade"],
    );
    assertEquals([json.panes, json.running_panes], [4, 2]);
    const again = await skiff.json<{ panes: number; running_panes: number }>(
      ["daemon", "restart", "--keep-panes"],
    );
    assertEquals([again.panes, again.running_panes], [4, 2]);
    assertEquals(
      (await panes(skiff)).map((p) => [p.name, p.status]),
      [["one", "running"], ["two", "running"], ["gone1", "exited"], ["gone2", "exited"]],
    );
  });
});

Deno.test("daemon upgrade with no skiffd says so and exits 0", async () => {
  await withSkiff(async (skiff) => {
    const text = await skiff.run(["daemon", "upgrade"]);
    assertEquals(text.code, 0, text.stderr);
    assertEquals(
      text.stdout.trim(),
      `skiffd is not running; the next command starts skiff ${VERSION}`,
    );
    assertEquals(
      await skiff.json(["daemon", "upgrade"]),
      {
        schema_version: 1,
        upgraded: false,
        running: false,
        version: VERSION,
        socket: skiff.socket,
      },
    );
  });
});

Deno.test("upgrade: 200 panes, every one handed over and answering", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const client = await DaemonClient.connect(skiff.socket);
    try {
      await client.call("pane.new", { name: "count", command: COUNTER, cwd: skiff.root });
      for (let i = 1; i < 200; i++) {
        await client.call("pane.new", { name: `sh${i}`, command: ["sh"], cwd: skiff.root });
      }
    } finally {
      client.close();
    }
    const before = await panes(skiff);
    assertEquals(before.length, 200);
    const first = await countsPast(skiff, "count", 10);

    const result = await skiff.json<{ panes: number; ms: { total: number } }>([
      "daemon",
      "upgrade",
    ]);
    assertEquals(result.panes, 200);
    const after = await panes(skiff);
    assertEquals(
      after.map((p) => [p.id, p.pid, p.generation, p.status]),
      before.map((p) => [p.id, p.pid, p.generation, p.status]),
    );
    // Each shell reads and answers through the new skiffd.
    for (const name of ["sh1", "sh57", "sh123", "sh199"]) {
      await skiff.ok(["keys", name, `echo answer-from-${name}`, "Enter"]);
      await skiff.waitForScreen(name, new RegExp(`^answer-from-${name}$`, "m"));
    }
    assertUnbroken(await countsPast(skiff, "count", first.length + 20));
    const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
    assertEquals(status.running_panes, 200);
  });
});

Deno.test("upgrade: the app comes back at the same address, and its page connects again", async () => {
  await withSkiff(async (skiff) => {
    const status = await skiff.json<{ url: string; origin: string; port: number }>([
      "app",
      "--no-open",
    ]);
    const login = await fetch(status.url, { redirect: "manual" });
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${status.port}/ws`, {
          headers: { cookie, origin: `http://127.0.0.1:${status.port}` },
        } as unknown as string[]);
        socket.onopen = () => resolve(socket);
        socket.onerror = () => reject(new Error("the app's WebSocket did not open"));
      });
    const page = await open();
    const closed = new Promise((resolve) => page.onclose = resolve);

    await skiff.ok(["daemon", "upgrade"]);
    await closed;
    const again = await waitFor("the app to answer again", async () => {
      const response = await fetch(status.origin, { headers: { cookie } }).catch(() => undefined);
      await response?.body?.cancel();
      return response?.status === 200 ? response : undefined;
    });
    assertEquals(again.status, 200);
    const socket = await open();
    socket.close();
    assertEquals(
      (await skiff.json<{ url: string }>(["app", "--no-open"])).url,
      status.url,
    );
  });
});

Deno.test("upgrade: across a change of protocol, both ways; meanwhile the other skiff is refused with exit 18", async () => {
  const next = await makeCheckout({ version: "2.0.0", protocol: PROTOCOL_VERSION + 1 });
  try {
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "count", "--", ...COUNTER]);
      const before = (await panes(skiff))[0];
      const up = await skiff.run(["daemon", "upgrade"], { main: next.main });
      assertEquals(up.code, 0, up.stderr);
      assertMatch(up.stdout, new RegExp(`upgraded ${VERSION} → 2\\.0\\.0`));
      const refused = await skiff.run(["ls"]);
      assertEquals(refused.code, 18, refused.stderr);
      assertMatch(refused.stderr, /speaks protocol \d+, newer than this skiff/);

      // The older skiff moves skiffd back to itself, with the same panes.
      const down = await skiff.run(["daemon", "upgrade"]);
      assertEquals(down.code, 0, down.stderr);
      assertMatch(down.stdout, new RegExp(`upgraded 2\\.0\\.0 → ${VERSION}`));
      const after = (await panes(skiff))[0];
      assertEquals([after.pid, after.generation], [before.pid, before.generation]);
      assertUnbroken(await counted(skiff, "count"));
    });
  } finally {
    await next.remove();
  }
});

Deno.test("upgrade: skiff wait goes on through it and sees the end it waited for", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "job", "--", ...BASH, "-c", "read line; exit 0"]);
    const waiting = skiff.run(["wait", "job", "--until", "exited", "--timeout", "120"]);
    // The wait is under way before the upgrade cuts it off.
    await waitFor(
      "the wait to be under way",
      async () =>
        (await skiff.json<DaemonStatus>(["daemon", "status"])).clients >= 2 ? true : undefined,
    );
    await skiff.ok(["daemon", "upgrade"]);
    await skiff.ok(["keys", "job", "Enter"]);
    const result = await waiting;
    assertEquals([result.code, result.stdout.trim()], [0, "job is exited"], result.stderr);
  });
});

/**
 * Floods a pane through an upgrade (`skiff daemon upgrade`, with `main`
 * when given) and checks every byte came through once; returns how many
 * bytes the upgrade handed over unparsed.
 */
Deno.test("upgrade: a busy pane's older history goes over apart and is built when first read, whole and in order", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(skiff.configFile, "[daemon]\nscrollback = 10000\n");
    // 6,000 coloured lines at once, then a line every 20 ms: busy, with a long history.
    const script = "i=0; while [ $i -lt 6000 ]; do printf '\\033[3%dmn%d\\033[0m\\n' " +
      "$((i % 8)) $i; i=$((i+1)); done; while :; do echo n$i; i=$((i+1)); sleep 0.02; done";
    await skiff.ok(["new", "--name", "long", "--", ...BASH, "-c", script]);
    const before = await countsPast(skiff, "long", 6000);
    assertUnbroken(before);
    const result = await skiff.json<{ upgraded: boolean; aside_panes: number }>([
      "daemon",
      "upgrade",
    ]);
    assert(result.upgraded, JSON.stringify(result));
    assertEquals(result.aside_panes, 1, "the busy pane's history went over apart");
    // Read after more output came: every line, from the first, with none missing or twice.
    const after = await countsPast(skiff, "long", before.length + 20);
    assert(after.length > before.length + 20);
    assertUnbroken(after);
    const coloured = await skiff.ok(["capture", "long", "--ansi", "--scrollback", "10000"]);
    assertMatch(coloured, /\x1b\[[0-9;]*3[1-7]m/, "the older lines keep their colours");
  });
});

async function floodThroughUpgrade(skiff: SkiffEnv, main?: string): Promise<number> {
  const stop = `${skiff.root}/stop`;
  const count = `${skiff.root}/count`;
  // Blocks of 250,000 y's, each followed by a scroll up (CSI S: slow to parse, so output
  // waits), 1,000,000 bytes with no line end: each block moves the cursor 40 columns of 120
  // on, so a byte lost or doubled anywhere shows in where the cursor ends. The title, which
  // moves nothing, tells the end.
  const flood = `u=$(printf 'y\\033[S'); n=0; while [ ! -e ${stop} ]; do ` +
    `yes "$u" | tr -d '\\n' | head -c 1000000; n=$((n+1)); done; echo $n > ${count}; ` +
    `printf '\\033]2;flood-end\\007'; exec sleep 600`;
  await skiff.ok(["new", "--name", "flood", "--size", "120x30", "--", "sh", "-c", flood]);
  await skiff.waitForScreen("flood", /y/);
  const result = await skiff.json<{ unparsed_bytes: number }>(
    ["daemon", "upgrade"],
    main ? { main } : {},
  );
  Deno.writeTextFileSync(stop, "");
  const end = await waitFor("the flood to end", async () => {
    const shot = await skiff.json<ScreenSnapshot>(["capture", "flood"]);
    return shot.title === "flood-end" ? shot : undefined;
  }, { timeout: 60_000 });
  const blocks = Number(Deno.readTextFileSync(count).trim());
  const column = (blocks * 250_000) % 120 || 120;
  assertEquals(Math.min(end.cursor.x, 119), Math.min(column, 119), `after ${blocks} blocks`);
  return result.unparsed_bytes;
}

Deno.test("upgrade: a flooding pane's output read and not parsed yet goes over as it is, every byte once", async () => {
  await withSkiff(async (skiff) => {
    const unparsed = await floodThroughUpgrade(skiff);
    assert(unparsed > 0, `output waited at the freeze: ${unparsed}`);
    // The flood was neither read nor parsed while the new program ran its check.
    const log = await Deno.readTextFile(`${skiff.root}/run/skiffd.log`);
    assertMatch(log, /upgrade \w+: flooding panes held for the check: 1\n/);
  });
});

Deno.test("upgrade: into a skiff that reads handoff version 2 only, a flooding pane's output is parsed before the freeze, every byte once", async () => {
  const older = await makeCheckout({
    version: "0.95.0",
    edits: [{
      path: "lib/daemon/upgrade/handoff.ts",
      find: "export const HANDOFF_VERSION = 4;",
      replace: "export const HANDOFF_VERSION = 2;",
    }],
  });
  try {
    await withSkiff(async (skiff) => {
      assertEquals(await floodThroughUpgrade(skiff, older.main), 0);
      const status = await skiff.json<DaemonStatus>(["daemon", "status"], { main: older.main });
      assertEquals(status.version, "0.95.0");
    });
  } finally {
    await older.remove();
  }
});
