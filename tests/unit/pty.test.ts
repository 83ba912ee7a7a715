import { assert, assertEquals } from "../helpers/assert.ts";
import { spawnPty } from "../../lib/platform/pty.ts";
import { OutputScheduler } from "../../lib/daemon/panes/scheduler.ts";
import { Screen } from "../../lib/screen/screen.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm-256color" };

/** Bytes `seq 1 n` prints through a PTY (each newline becomes CR LF). */
function seqBytes(n: number): number {
  let total = 0;
  for (let i = 1; i <= n; i++) total += String(i).length + 2;
  return total;
}

Deno.test("pty: output still in the terminal when a paused program exits is read, not lost", async (t) => {
  // node-pty drops its read stream 200 ms after the child exits; a pause longer than that
  // used to lose what the kernel still held.
  for (const n of [1500, 3000, 20_000]) {
    await t.step(`seq 1 ${n}`, async () => {
      const pty = await spawnPty("seq", ["1", String(n)], {
        cwd: "/",
        env: ENV,
        cols: 80,
        rows: 24,
      });
      let received = 0;
      let paused = false;
      pty.onData((data) => {
        received += data.length;
        if (!paused) {
          paused = true;
          pty.pause();
          setTimeout(() => pty.resume(), 600);
        }
      });
      const exit = await new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
      assertEquals(exit, 0);
      assertEquals(received, seqBytes(n));
    });
  }
});

Deno.test("pty: a program paused for fairness blocks, resumes, and every byte reaches the screen", async () => {
  const scheduler = new OutputScheduler({
    sliceBytes: 2048,
    turnMs: 1,
    pauseBytes: 16 << 10,
    resumeBytes: 4 << 10,
  });
  const screen = new Screen(80, 24, { scrollback: 0, respond: () => {} });
  try {
    const pty = await spawnPty("seq", ["1", "200000"], { cwd: "/", env: ENV, cols: 80, rows: 24 });
    let parsed = 0;
    const queue = scheduler.add({
      consume: (data) => {
        parsed += data.length;
        screen.writeSync(data);
      },
      pause: () => pty.pause(),
      resume: () => pty.resume(),
    });
    pty.onData((data) => queue.push(data));
    const exit = await new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    await new Promise<void>((resolve) => queue.whenDrained(resolve));
    assertEquals(exit, 0);
    assert(queue.pauses > 0, "the program was paused at least once");
    assertEquals(parsed, seqBytes(200_000));
    assertEquals(screen.visibleLines().slice(-3), ["199999", "200000", ""]);
  } finally {
    scheduler.close();
    screen.dispose();
  }
});
