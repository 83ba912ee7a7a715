import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  ARGV_SETTLE_MS,
  foregroundGroup,
  foregroundProcess,
  ForegroundReader,
  killSession,
  killSessions,
  membersOfSessions,
  processCwd,
  processInfo,
  processStartTicks,
  residentBytes,
  sessionMembers,
} from "../../../lib/platform/proc.ts";
import { spawnPty } from "../../../lib/platform/pty.ts";
import { basename, join } from "node:path";

const isLinux = Deno.build.os === "linux";

/** Asks `ps` for one field of process `pid`. */
async function ps(pid: number, field: string): Promise<string> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", `${field}=`, "-p", String(pid)] })
    .output();
  return new TextDecoder().decode(stdout).trim();
}

function tempDir(): { path: string; [Symbol.dispose](): void } {
  const path = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "skiff-proc-" }));
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

/** Resolves once `check` holds, checking every few milliseconds, for up to 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Starts `file args…` in `cwd` and waits until the child has exec'd (its
 * argv ends in `args` and its name is the file's); the handle kills and reaps
 * it. Deno passes the resolved path as argv[0].
 */
async function start(file: string, args: string[], cwd: string) {
  const child = new Deno.Command(file, { args, cwd, stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  const name = basename(file).slice(0, 15);
  await until(() => {
    const info = processInfo(child.pid);
    return info?.comm === name && info.argv.slice(1).join("\0") === args.join("\0");
  }, `${file} to start`).catch(async (error) => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    throw error;
  });
  return {
    pid: child.pid,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await child.status;
    },
  };
}

Deno.test({
  name: "proc: the test's own process",
  ignore: !isLinux,
  async fn() {
    const info = processInfo(Deno.pid);
    assert(info !== undefined, "processInfo of self");
    assertEquals(info.pid, Deno.pid);
    assertEquals(info.comm, await ps(Deno.pid, "comm"));
    assertEquals(info.argv.join(" "), await ps(Deno.pid, "args"));
    assertEquals(processCwd(Deno.pid), Deno.cwd());
    assert((residentBytes(Deno.pid) ?? 0) > 1 << 20, "more than 1 MB resident");
    // The foreground group of our terminal, if we have one, as ps sees it.
    const tpgid = Number(await ps(Deno.pid, "tpgid"));
    assertEquals(foregroundGroup(Deno.pid), tpgid > 0 ? tpgid : undefined);
    assertEquals(foregroundProcess(Deno.pid), tpgid > 0 ? processInfo(tpgid) : undefined);
  },
});

Deno.test({
  name: "proc: a spawned sleep",
  ignore: !isLinux,
  async fn() {
    using dir = tempDir();
    await using sleep = await start("sleep", ["30"], dir.path);
    const info = processInfo(sleep.pid);
    assertEquals(info?.pid, sleep.pid);
    assertEquals(info?.comm, "sleep");
    assertEquals(info?.argv.length, 2);
    assertEquals(basename(info!.argv[0]), "sleep");
    assertEquals(info?.argv[1], "30");
    assertEquals(info?.argv.join(" "), await ps(sleep.pid, "args"));
    assertEquals(processCwd(sleep.pid), dir.path);
    assert((residentBytes(sleep.pid) ?? 0) > 0, "resident memory");
    const tpgid = Number(await ps(sleep.pid, "tpgid"));
    assertEquals(foregroundGroup(sleep.pid), tpgid > 0 ? tpgid : undefined);
  },
});

Deno.test({
  name: "proc: a command name with spaces and parentheses",
  ignore: !isLinux,
  async fn() {
    using dir = tempDir();
    const odd = join(dir.path, "a) (b c");
    Deno.copyFileSync(Deno.realPathSync("/bin/sleep"), odd);
    Deno.chmodSync(odd, 0o755);
    await using child = await start(odd, ["30"], dir.path);
    const info = processInfo(child.pid);
    assertEquals(info?.comm, "a) (b c");
    assertEquals(info?.argv, [odd, "30"]);
    const tpgid = Number(await ps(child.pid, "tpgid"));
    assertEquals(foregroundGroup(child.pid), tpgid > 0 ? tpgid : undefined);
  },
});

Deno.test({
  name: "proc: processes that do not exist",
  ignore: !isLinux,
  async fn() {
    const child = new Deno.Command("true").spawn();
    await child.status;
    const gone = { pid: child.pid };
    for (const pid of [gone.pid, 0, -1, 2 ** 31]) {
      assertEquals(processInfo(pid), undefined);
      assertEquals(processCwd(pid), undefined);
      assertEquals(foregroundGroup(pid), undefined);
      assertEquals(foregroundProcess(pid), undefined);
      assertEquals(residentBytes(pid), undefined);
    }
  },
});

Deno.test({
  name: "proc: foregroundProcess follows the job in front of a pty",
  ignore: !isLinux,
  async fn() {
    using dir = tempDir();
    const pty = await spawnPty("/bin/sh", [], {
      cwd: dir.path,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm", PS1: "$ " },
      cols: 80,
      rows: 24,
    });
    const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
    let output = "";
    pty.onData((d) => output += new TextDecoder().decode(d));
    try {
      await until(() => output.includes("$ "), "the prompt");
      assertEquals(foregroundProcess(pty.pid)?.comm, "sh");
      assertEquals(foregroundProcess(pty.pid)?.pid, pty.pid);
      assertEquals(processCwd(pty.pid), dir.path);
      pty.write(new TextEncoder().encode("cd /\rsleep 31\r"));
      // The name changes early in exec and the arguments a moment later: wait for both.
      await until(() => {
        const front = foregroundProcess(pty.pid);
        return front?.comm === "sleep" && front.argv.length > 0;
      }, "sleep in front");
      const front = foregroundProcess(pty.pid)!;
      assertEquals(front.argv, ["sleep", "31"]);
      assert(front.pid !== pty.pid, "its own process group");
      assertEquals(processCwd(front.pid), "/");
      assertEquals(processCwd(pty.pid), "/");
      pty.write(new TextEncoder().encode("\x03"));
      await until(() => foregroundProcess(pty.pid)?.comm === "sh", "the shell back in front");
    } finally {
      // Kill the job we started, if it is still in front, then the shell.
      const front = foregroundGroup(pty.pid);
      if (front !== undefined && front !== pty.pid) Deno.kill(-front, "SIGKILL");
      pty.kill("SIGKILL");
      await exited;
    }
  },
});

Deno.test({
  name:
    "proc: killSession kills a session only while its leader is the process seen at the hang-up",
  ignore: !isLinux,
  async fn() {
    // `setsid` makes the sleep a session leader: its pid is its session id.
    const leader = new Deno.Command("setsid", { args: ["sleep", "60"] }).spawn();
    try {
      await until(() => sessionMembers(leader.pid).includes(leader.pid), "the new session");
      const started = processStartTicks(leader.pid);
      assert(started !== undefined && started > 0, `start ticks ${started}`);
      // As if the pid had been taken again by a stranger: another start time, or none seen.
      assertEquals(killSession(leader.pid, { leaderStart: started! + 1 }), 0);
      assertEquals(killSession(leader.pid, { leaderStart: undefined }), 0);
      assertEquals(sessionMembers(leader.pid), [leader.pid]);
      assertEquals(killSession(leader.pid, { leaderStart: started }), 1);
      assertEquals((await leader.status).signal, "SIGKILL");
    } finally {
      try {
        leader.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await leader.status;
    }
  },
});

Deno.test({
  name: "proc: a ForegroundReader follows the process in front, and an exec in it",
  ignore: !isLinux,
  async fn() {
    using dir = tempDir();
    // A shell on a terminal of its own: at its prompt it is in front.
    const pty = await spawnPty("/bin/sh", [], {
      cwd: dir.path,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", PS1: "$ " },
      cols: 80,
      rows: 24,
    });
    try {
      const reader = new ForegroundReader();
      const front = () => reader.read(pty.pid);
      await until(() => front()?.pid === pty.pid, "the shell in front");
      assertEquals(front(), foregroundProcess(pty.pid));
      // A job in front: another process, its own argv.
      pty.write(new TextEncoder().encode("sleep 31\r"));
      await until(() => front()?.comm === "sleep" && front()!.argv.length > 0, "sleep in front");
      assertEquals(front()?.argv, ["sleep", "31"]);
      assertEquals(front(), foregroundProcess(pty.pid));
      pty.write(new TextEncoder().encode("\x03"));
      await until(() => front()?.pid === pty.pid, "the shell back in front");
      assertEquals(front()?.comm, "sh");
      // An exec in the process in front keeps its pid: the new name and argv are read.
      pty.write(new TextEncoder().encode("exec sleep 32\r"));
      // The kernel shows the new name a moment before the new arguments: both are read again.
      await until(() => front()?.comm === "sleep" && front()!.argv.length > 0, "the exec'd sleep");
      assertEquals(front()?.pid, pty.pid);
      assertEquals(front()?.argv, ["sleep", "32"]);
      // What it returns is a copy: changing it changes nothing the next read returns.
      front()!.argv.push("changed");
      assertEquals(front()?.argv, ["sleep", "32"]);
    } finally {
      pty.kill("SIGKILL");
    }
  },
});

Deno.test({
  name: "proc: a ForegroundReader reads a new process whole: an exec under the same name is seen",
  ignore: !isLinux,
  async fn() {
    using dir = tempDir();
    // The shell in front execs another shell: the same pid and name, another argv (as skiffd,
    // itself deno, forks a child that execs a deno program).
    const pty = await spawnPty("/bin/sh", ["-c", 'sleep 0.3; exec /bin/sh -c "sleep 33" second'], {
      cwd: dir.path,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      cols: 80,
      rows: 24,
    });
    try {
      const reader = new ForegroundReader();
      const start = Date.now();
      // Right after the spawn the child may not have its terminal yet: wait for the shell.
      await until(() => reader.read(pty.pid, start)?.comm === "sh", "the shell in front");
      await until(
        () => reader.read(pty.pid, start + 10)?.argv.includes("second") ?? false,
        "the exec'd shell's argv",
      );
      // Settled: the argv is kept, and still followed by the name.
      assertEquals(reader.read(pty.pid, start + ARGV_SETTLE_MS + 20)?.argv.at(-1), "second");
      assertEquals(reader.read(pty.pid, start + ARGV_SETTLE_MS + 40)?.argv.at(-1), "second");
    } finally {
      pty.kill("SIGKILL");
    }
  },
});

Deno.test({
  name: "proc: killSessions ends several sessions, each only with its own leader, from one look",
  ignore: !isLinux,
  async fn() {
    const leaders = [0, 1, 2].map(() =>
      new Deno.Command("setsid", { args: ["sleep", "60"] }).spawn()
    );
    try {
      const pids = leaders.map((l) => l.pid);
      await until(
        () => [...membersOfSessions(pids).values()].every((m) => m.length === 1),
        "three sessions",
      );
      const starts = pids.map((pid) => processStartTicks(pid)!);
      // The third leader's start is not the one seen: a stranger's pid, left alone.
      const killed = killSessions(
        new Map([
          [pids[0], { leaderStart: starts[0] }],
          [pids[1], {}],
          [pids[2], { leaderStart: starts[2] + 1 }],
        ]),
      );
      assertEquals(killed, 2);
      assertEquals((await leaders[0].status).signal, "SIGKILL");
      assertEquals((await leaders[1].status).signal, "SIGKILL");
      assertEquals(membersOfSessions([pids[2]]).get(pids[2]), [pids[2]]);
    } finally {
      for (const leader of leaders) {
        try {
          leader.kill("SIGKILL");
        } catch {
          // Already gone.
        }
        await leader.status;
      }
    }
  },
});
