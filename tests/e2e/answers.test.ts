/**
 * Issue 21, "wrong or missing answers": what commands say back. A raised
 * size says so (item 14), global flags come before the command (15),
 * `skiff agents` shows whole lines (16), `skiff seen` says what it cleared
 * (20), `skiff send` names its limit (8), `skiff wait` on a shell fails
 * at once (9). Each test runs the real `skiff` in an isolated HOME.
 */

import { dirname } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import { PROTOCOL_VERSION } from "../../lib/version.ts";
import { RawSocket } from "../helpers/raw_socket.ts";
import { FAKE_AGENT, useFakeAgent } from "../helpers/fake_agent.ts";

async function pane(skiff: Parameters<Parameters<typeof withSkiff>[0]>[0], name: string) {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

Deno.test("item 14: new --size below 20x5 is raised and says so; a bad size names the real limits", async () => {
  await withSkiff(async (skiff) => {
    const small = await skiff.run(["new", "--name", "small", "--size", "2x2", "--", ...BASH]);
    assertEquals(small.code, 0, small.stderr);
    assertMatch(small.stdout, /^p\d+\n$/);
    assertEquals(
      small.stderr,
      "skiff: size 2x2 was raised to 20x5, the smallest a pane takes\n",
    );
    const info = await pane(skiff, "small");
    assertEquals([info.cols, info.rows], [20, 5]);
    const json = await skiff.json<{ pane: PaneInfo; size_raised_from: unknown }>([
      "new",
      "--name",
      "narrow",
      "--size",
      "80x3",
      "--",
      ...BASH,
    ]);
    assertEquals(json.size_raised_from, { cols: 80, rows: 3 });
    assertEquals([json.pane.cols, json.pane.rows], [80, 5]);
    const fits = await skiff.run([
      "new",
      "--name",
      "fits",
      "--size",
      "20x5",
      "--json",
      "--",
      ...BASH,
    ]);
    assertEquals(fits.stderr, "", "no note for a size that fits");
    assertEquals(JSON.parse(fits.stdout).size_raised_from, null);
    for (const bad of ["0x0", "1001x10", "80x0"]) {
      const result = await skiff.run(["new", "--size", bad, "--", ...BASH]);
      assertEquals(result.code, 2, bad);
      assertEquals(
        result.stderr,
        `skiff: Bad size '${bad}': use COLSxROWS, such as 120x40, up to 1000x1000; a pane is at least 20x5 (a smaller size is raised to it)\n`,
      );
    }
    assertEquals((await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.length, 3);
  });
});

Deno.test("item 15: global flags may come before the command: skiff --json COMMAND, skiff --help COMMAND", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    const listed = await skiff.run(["--json", "ls"]);
    assertEquals(listed.code, 0, listed.stderr);
    assertEquals(JSON.parse(listed.stdout).panes[0].name, "w");
    const status = JSON.parse(await skiff.ok(["--json", "daemon", "status"]));
    assertEquals(status.running, true);
    const help = await skiff.ok(["--help", "new"]);
    assertMatch(help, /^Usage: skiff new /);
    assertEquals(
      await skiff.ok(["-h", "ledger", "add"]),
      await skiff.ok(["ledger", "add", "--help"]),
    );
    assertEquals(
      await skiff.ok(["help", "ledger", "add"]),
      await skiff.ok(["ledger", "add", "--help"]),
    );
    const unknown = await skiff.run(["--json", "nope"]);
    assertEquals(unknown.code, 2);
    assertEquals(
      JSON.parse(unknown.stderr).error.message,
      "Unknown command 'nope'. See 'skiff --help'.",
    );
    const bogus = await skiff.run(["--bogus", "ls"]);
    assertEquals([bogus.code, bogus.stderr], [
      2,
      "skiff: Unknown option '--bogus' before the command. See 'skiff --help'.\n",
    ]);
    // A --json after '--' is the pane's command's, not skiff's.
    const passed = await skiff.run([
      "new",
      "--name",
      "j",
      "--",
      "bash",
      "--norc",
      "-c",
      "echo --json; sleep 30",
    ]);
    assertEquals(passed.code, 0, passed.stderr);
    assertMatch(passed.stdout, /^p\d+\n$/, "text, not JSON");
    assertMatch(await skiff.ok(["--help"]), /before or after the command/);
  });
});

Deno.test("item 16: skiff agents shows a custom agent's command and continue line whole, in text and JSON", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    const deno = Deno.execPath();
    await Deno.writeTextFile(
      skiff.configFile,
      `[agents.mine]\ncommand = "${deno} run -A /opt/mine/agent.ts --model 'big one'"\n` +
        `prompt = '^> (.*)$'\ncontinue_args = "--continue --quiet"\n`,
    );
    const whole = `${deno} run -A /opt/mine/agent.ts --model 'big one'`;
    const { agents } = await skiff.json<{
      agents: { id: string; command: string; argv: string[]; continue: string | null }[];
    }>(["agents"]);
    const mine = agents.find((a) => a.id === "mine")!;
    assertEquals(mine.command, whole);
    assertEquals(mine.argv, [deno, "run", "-A", "/opt/mine/agent.ts", "--model", "big one"]);
    assertEquals(mine.continue, `${whole} --continue --quiet`);
    const text = await skiff.ok(["agents"]);
    const line = text.split("\n").find((l) => l.startsWith("mine "))!;
    assert(line.includes(whole), `the whole command: ${line}`);
    assert(line.includes(`${whole} --continue --quiet`), `the whole continue line: ${line}`);
  });
});

Deno.test("item 20: skiff seen prints one line that says what was cleared", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "done", "--", "true"]);
    await waitFor("the pane to exit, unread", async () => {
      const info = await pane(skiff, "done");
      return info.state === "exited" && info.unread;
    });
    const id = (await pane(skiff, "done")).id;
    const seen = await skiff.run(["seen", "done"]);
    assertEquals([seen.code, seen.stderr], [0, ""]);
    assertEquals(seen.stdout, `Marked done (${id}) seen: it was unread for exit\n`);
    const again = await skiff.run(["seen", "done"]);
    assertEquals(again.stdout, `done (${id}) was not unread; nothing to clear\n`);
    const json = await skiff.json<{ was_unread: boolean }>(["seen", "done"]);
    assertEquals(json.was_unread, false);
  });
});

Deno.test("item 8: skiff send over 256 KB is refused before it is sent, naming the limit, exit 2; skiffd refuses it too", async () => {
  await withSkiff(async (skiff) => {
    // The issue's case: about 1 MB through stdin. Nothing is started to refuse it.
    for (const [size, shown] of [[1_100_000, "1 MB"], [300_000, "293 KB"]] as const) {
      const result = await skiff.run(["send", "w", "-", "--enter"], { stdin: "x".repeat(size) });
      assertEquals(result.code, 2, result.stderr);
      assertEquals(
        result.stderr,
        `skiff: Text is ${shown}; skiff send takes at most 256 KB: put the rest in a file and name it in the text\n`,
      );
    }
    const json = await skiff.run(["send", "w", "-", "--json"], { stdin: "x".repeat(300_000) });
    const error = JSON.parse(json.stderr).error;
    assertEquals([error.code, error.exit, error.limit], ["usage", 2, 262_144]);
    assertEquals((await skiff.run(["daemon", "status"])).code, 4, "no skiffd was started");
    // skiffd's own refusal of a pane.send that is too long is a usage error too.
    await skiff.ok(["new", "--name", "w", "--", ...BASH]);
    const socket = await RawSocket.connect(skiff.socket);
    try {
      await socket.request(1, "hello", { protocol: PROTOCOL_VERSION, client: "test" });
      const answer = await socket.request(2, "pane.send", { pane: "w", text: "y".repeat(300_000) });
      const refused = answer.error as { code: string; message: string };
      assertEquals(refused.code, "usage");
      assertMatch(refused.message, /^Text is 293 KB; skiff send takes at most 256 KB/);
    } finally {
      socket.close();
    }
    // A request over skiffd's 1 MB a line (keys takes no limit of its own) is refused unsent.
    const words = Array.from({ length: 12 }, () => "z".repeat(100_000));
    const keys = await skiff.run(["keys", "w", "--literal", ...words]);
    assertEquals(keys.code, 2, keys.stderr);
    assertMatch(
      keys.stderr,
      /^skiff: The request is 1\.1 MB, over skiffd's limit of 1 MB a line\n$/,
    );
    assertEquals((await pane(skiff, "w")).state, "shell", "skiffd still serves");
  });
});

Deno.test("item 9: skiff wait for an agent's state on a plain shell fails at once with exit 11; a shell's states still work", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const started = Date.now();
    const idle = await skiff.run(["wait", "sh", "--timeout", "60"]);
    assertEquals(idle.code, 11, idle.stderr);
    assertEquals(
      idle.stderr,
      "skiff: Pane 'sh' runs bash, not an agent: it never becomes idle. Wait for exited or shell, or start an agent in it\n",
    );
    assert(Date.now() - started < 30_000, "it did not wait out the timeout");
    const working = await skiff.run(["wait", "sh", "--until", "working", "--json"]);
    assertEquals(JSON.parse(working.stderr).error.code, "no_agent");
    assertEquals((await skiff.run(["wait", "sh", "--until", "shell"])).code, 0);
    const exited = await skiff.run(["wait", "sh", "--until", "exited", "--timeout", "0.5"]);
    assertEquals(exited.code, 7, "a shell can exit: that is waited for");
    // An agent typed into the shell gets time to start: the wait sees it through.
    await skiff.ok(["keys", "sh", `${Deno.execPath()} run -A -q ${FAKE_AGENT}`, "Enter"]);
    await skiff.ok(["wait", "sh", "--until", "idle", "--timeout", "30"]);
    // A wait for a turn ends when the agent quits and leaves the shell.
    const waiting = skiff.run(["wait", "sh", "--until", "working", "--timeout", "60"]);
    await skiff.ok(["send", "sh", "EXIT", "--enter", "--timeout", "1"]).catch(() => {});
    const quit = await waiting;
    assertEquals(quit.code, 11, quit.stderr);
    // A pane whose process exited reaches nothing but exited.
    await skiff.ok(["new", "--name", "gone", "--", "true"]);
    await skiff.ok(["wait", "gone", "--until", "exited", "--timeout", "10"]);
    const dead = await skiff.run(["wait", "gone", "--until", "idle", "--timeout", "60"]);
    assertEquals([dead.code, dead.stderr], [
      10,
      "skiff: Pane 'gone' has exited (0): it never becomes idle\n",
    ]);
  });
});
