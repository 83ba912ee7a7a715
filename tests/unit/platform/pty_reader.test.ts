import { assert, assertEquals } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { type Pty, spawnPty } from "../../../lib/platform/pty.ts";
import { ptyReader } from "../../../lib/platform/pty_reader.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm-256color" };
const linux = Deno.build.os === "linux";

/** What `seq 1 n` prints through a PTY (each newline becomes CR LF). */
function seqText(n: number): string {
  let text = "";
  for (let i = 1; i <= n; i++) text += `${i}\r\n`;
  return text;
}

/** Collects a PTY's output until its exit is told; `first` runs at its first chunk. */
function collect(
  pty: Pty,
  first?: () => void,
): { chunks: Uint8Array[]; bytes: () => number; exit: Promise<number> } {
  const chunks: Uint8Array[] = [];
  pty.onData((data) => {
    if (chunks.length === 0) first?.();
    chunks.push(data);
  });
  const exit = new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
  return { chunks, bytes: () => chunks.reduce((n, c) => n + c.length, 0), exit };
}

function text(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
}

/** write(2)'s number in /proc/PID/syscall: 1 on x86-64, 64 on arm64. */
const WRITE_SYSCALL = Deno.build.arch === "aarch64" ? "64" : "1";

/** Lines `seq` prints in a flood test: 15 MB, more than the thread reads before a pause lands. */
const FLOOD_LINES = 2_000_000;

/** `seq 1 FLOOD_LINES` on a new PTY. */
function seqFlood(): Promise<Pty> {
  return spawnPty("seq", ["1", String(FLOOD_LINES)], { cwd: "/", env: ENV, cols: 80, rows: 24 });
}

/** The system call a process waits in (Linux: the first field of /proc/PID/syscall). */
function waitingIn(pid: number): string {
  return Deno.readTextFileSync(`/proc/${pid}/syscall`).split(" ")[0];
}

Deno.test({
  name: "pty reader: a thread reads on Linux, and every byte arrives in order before the exit",
  ignore: !linux,
  fn: async () => {
    assert(ptyReader() !== null, "the reader thread runs here");
    const n = 300_000;
    const pty = await spawnPty("seq", ["1", String(n)], { cwd: "/", env: ENV, cols: 80, rows: 24 });
    const out = collect(pty);
    assertEquals(await out.exit, 0);
    assertEquals(text(out.chunks), seqText(n));
  },
});

Deno.test({
  name: "pty reader: a paused source is not read, so its program blocks in write until resumed",
  ignore: !linux,
  fn: async () => {
    // The thread must not read it all before the pause lands, even on a busy machine.
    const n = FLOOD_LINES;
    const pty = await seqFlood();
    const out = collect(pty, () => pty.pause());
    const write = WRITE_SYSCALL;
    await waitFor("seq to block in write", () => waitingIn(pty.pid) === write);
    // Nothing to wait for here: the point is that nothing happens. Batches read
    // before the pause may still be on their way from the thread (several, when
    // this process is busy); they land in the first window. Unpaused, the
    // remaining megabytes would arrive within the second many times over.
    const quiet = () => new Promise((resolve) => setTimeout(resolve, 500));
    await quiet();
    const before = out.bytes();
    await quiet();
    assertEquals(out.bytes(), before, "nothing is read while paused");
    assertEquals(waitingIn(pty.pid), write, "seq still waits to write");
    assert(out.bytes() < seqText(n).length, "seq has not printed everything");
    pty.resume();
    assertEquals(await out.exit, 0);
    assertEquals(text(out.chunks), seqText(n));
  },
});

Deno.test({
  name: "pty reader: while the event loop is held, the thread reads a flood no further",
  ignore: !linux,
  fn: async () => {
    // The thread alone reads the whole flood in a fraction of the hold below.
    const n = FLOOD_LINES;
    const pty = await seqFlood();
    const write = WRITE_SYSCALL;
    let held = "";
    const out = collect(pty, () => {
      // A long synchronous task: nothing the thread posts is taken in meanwhile.
      const until = Date.now() + 1500;
      while (Date.now() < until) {
        // Held.
      }
      held = waitingIn(pty.pid);
    });
    assertEquals(await out.exit, 0);
    assertEquals(held, write, "seq waited to write while the event loop was held");
    assertEquals(text(out.chunks), seqText(n));
  },
});

Deno.test({
  name: "pty reader: a child that keeps the terminal open does not hold back the exit",
  ignore: !linux,
  fn: async () => {
    // The shell exits; the sleep it leaves behind ignores the hang-up and keeps the
    // terminal open, so reading never comes to the end of the file.
    const script = '(trap "" HUP; exec sleep 30) & echo left-running; exit 3';
    const pty = await spawnPty("sh", ["-c", script], {
      cwd: "/",
      env: ENV,
      cols: 80,
      rows: 24,
    });
    const out = collect(pty);
    try {
      assertEquals(await out.exit, 3);
      assert(text(out.chunks).includes("left-running"), text(out.chunks));
    } finally {
      // The sleep shares the shell's process group and session.
      try {
        Deno.kill(-pty.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
  },
});
