/**
 * A program started on a terminal through libc (`pty_spawn.ts`) starts as
 * one started by node-pty does: a session leader with the terminal as its
 * controlling terminal, in its folder, with its environment, no signal
 * blocked or ignored, the terminal's modes alike, and its exit told. Each
 * case runs both ways, so the two cannot drift apart. One difference is
 * meant: the libc way turns the terminal's UTF-8 mode on, as tmux does.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { NODE_PTY_ENV, type Pty, type PtyExit, spawnPty } from "../../../lib/platform/pty.ts";
import { spawnPtyDirect } from "../../../lib/platform/pty_spawn.ts";

const ENV = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  TERM: "xterm-256color",
  SPAWN_MARK: "marked",
};

/** Runs `script` in sh on a terminal, the direct way or through node-pty; its output and exit. */
async function run(script: string, nodePty: boolean): Promise<{ text: string; exit: PtyExit }> {
  const before = Deno.env.get(NODE_PTY_ENV);
  if (nodePty) Deno.env.set(NODE_PTY_ENV, "1");
  let pty: Pty;
  try {
    pty = await spawnPty("sh", ["-c", script], { cwd: "/tmp", env: ENV, cols: 100, rows: 30 });
  } finally {
    if (before === undefined) Deno.env.delete(NODE_PTY_ENV);
    else Deno.env.set(NODE_PTY_ENV, before);
  }
  const decoder = new TextDecoder();
  let text = "";
  pty.onData((data) => text += decoder.decode(data, { stream: true }));
  const exit = await new Promise<PtyExit>((resolve) => pty.onExit(resolve));
  return { text: text.replaceAll("\r\n", "\n"), exit };
}

for (const nodePty of [false, true]) {
  const how = nodePty ? "node-pty" : "libc";
  Deno.test(`pty spawn (${how}): a session leader on its own controlling terminal`, async () => {
    const { text, exit } = await run(
      'echo "pid=$$"; ps -o sid= -o pgid= -o tty= -p $$; tty; stty size',
      nodePty,
    );
    const pid = /pid=(\d+)/.exec(text)![1];
    assertMatch(text, new RegExp(`^\\s*${pid}\\s+${pid}\\s+pts/\\d+\\s*$`, "m"));
    assertMatch(text, /^\/dev\/pts\/\d+$/m);
    assertMatch(text, /^30 100$/m);
    assertEquals(exit, { exitCode: 0, signal: 0 });
  });

  Deno.test(`pty spawn (${how}): folder, environment, signals and the terminal's modes`, async () => {
    const { text } = await run(
      'pwd; echo "mark=$SPAWN_MARK term=$TERM"; grep -E "^Sig(Blk|Ign)" /proc/self/status; ' +
        "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(iutf8|icanon|echo|isig|hupcl|ixany|imaxbel|brkint)'",
      nodePty,
    );
    assertMatch(text, /^\/tmp$/m);
    assertMatch(text, /^mark=marked term=xterm-256color$/m);
    assertMatch(text, /^SigBlk:\s+0+$/m);
    // node-pty resets signals 1 to 31 only; glibc's own from 32 stay as this process has them.
    const ignored = BigInt("0x" + /^SigIgn:\s+([0-9a-f]+)$/m.exec(text)![1]);
    assertEquals(nodePty ? ignored & 0x7fffffffn : ignored, 0n);
    for (const mode of ["icanon", "echo", "isig", "hupcl", "ixany", "imaxbel", "brkint"]) {
      assertMatch(text, new RegExp(`^${mode}$`, "m"));
    }
    assertMatch(text, nodePty ? /^-iutf8$/m : /^iutf8$/m);
  });

  Deno.test(`pty spawn (${how}): an exit code and a signal are told`, async () => {
    assertEquals((await run("exit 7", nodePty)).exit, { exitCode: 7, signal: 0 });
    assertEquals((await run("kill -TERM $$", nodePty)).exit.signal, 15);
  });
}

Deno.test("pty spawn: a program that cannot start is left to node-pty, which says why", async () => {
  assertEquals(
    spawnPtyDirect("no-such-program-here", [], { cwd: "/", env: ENV, cols: 80, rows: 24 }),
    null,
  );
  const pty = await spawnPty("no-such-program-here", [], {
    cwd: "/",
    env: ENV,
    cols: 80,
    rows: 24,
  });
  let text = "";
  pty.onData((data) => text += new TextDecoder().decode(data));
  const exit = await new Promise<PtyExit>((resolve) => pty.onExit(resolve));
  assert(exit.exitCode !== 0, JSON.stringify(exit));
  assertMatch(text, /No such file or directory/);
});
