/**
 * Issue 28, case 1: `skiff daemon stop` returns only once skiffd's process
 * has exited and left the process table, and a start never runs a second
 * skiffd beside one that is still exiting. Two skiffd processes never share
 * one socket folder, not even for a moment: a scan of /proc watches for it
 * the whole time.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import { processPresence, processStartTicks } from "../../lib/platform/proc.ts";

const PANES = ["sh1", "sh2", "sh3", "sh4"];

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The shell words that run this checkout's skiff. */
const SKIFF = [Deno.execPath(), "run", "-A", "-q", MAIN].map(quote).join(" ");

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Watches /proc for skiffd processes of one socket: a process whose command
 * line is `… daemon run` and whose environment names the socket. Once seen,
 * a process counts for as long as its pid is in /proc with the same start
 * time: zombie or not (as `kill -0` and `ps` see it), or with `live` only
 * while it runs (a zombie holds no file, lock or socket). The most ever
 * seen at once is kept, with the pids.
 */
class SkiffdWatch {
  readonly #socket: string;
  readonly #live: boolean;
  readonly #known = new Map<number, number | undefined>();
  most = 0;
  mostPids: number[] = [];
  samples = 0;
  #running = true;
  readonly #done: Promise<void>;

  constructor(socket: string, options: { live?: boolean } = {}) {
    this.#socket = socket;
    this.#live = options.live ?? false;
    this.#done = this.#loop();
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      this.sample();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** One look at /proc. */
  sample(): void {
    this.samples++;
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const pid = Number(entry.name);
      if (this.#known.has(pid)) continue;
      const argv = readText(`/proc/${pid}/cmdline`)?.split("\0") ?? [];
      const run = argv.indexOf("run", argv.indexOf("daemon"));
      if (argv.indexOf("daemon") === -1 || run !== argv.indexOf("daemon") + 1) continue;
      if (!readText(`/proc/${pid}/environ`)?.includes(`SKIFF_SOCKET=${this.#socket}\0`)) continue;
      // A pane's process between its fork and its exec is a copy of its skiffd: not one.
      const stat = readText(`/proc/${pid}/stat`);
      const ppid = stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : 0;
      if (this.#known.has(ppid)) continue;
      this.#known.set(pid, processStartTicks(pid));
    }
    const present = [...this.#known].filter(([pid, start]) =>
      start !== undefined && processStartTicks(pid) === start &&
      (!this.#live || processPresence(pid) === "running")
    ).map(([pid]) => pid);
    if (present.length > this.most) {
      this.most = present.length;
      this.mostPids = present;
    }
  }

  /** Every skiffd seen. */
  get seen(): number[] {
    return [...this.#known.keys()];
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

async function bash(skiff: SkiffEnv, script: string): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command("bash", {
    args: ["-c", script],
    env: skiff.env,
    clearEnv: true,
    cwd: skiff.env.HOME,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, out: decoder.decode(output.stdout) + decoder.decode(output.stderr) };
}

/** The end of skiffd's log, to tell why a start failed. */
async function logTail(skiff: SkiffEnv): Promise<string> {
  const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log")).catch(() => "");
  return `\nskiffd.log ends:\n${log.split("\n").slice(-40).join("\n")}`;
}

async function openPanes(skiff: SkiffEnv): Promise<void> {
  for (const name of PANES) await skiff.ok(["new", "--name", name, "--", ...BASH]);
}

/** The shells of this Skiff's panes that run now (not zombies), by pane id. */
function paneShells(skiff: SkiffEnv): Map<string, number[]> {
  const shells = new Map<string, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = readText(`/proc/${entry.name}/stat`);
    if (!stat || stat[stat.lastIndexOf(")") + 2] === "Z") continue;
    const env = readText(`/proc/${entry.name}/environ`)?.split("\0") ?? [];
    if (!env.includes(`SKIFF_SOCKET=${skiff.socket}`)) continue;
    const pane = env.find((v) => v.startsWith("SKIFF_PANE="))?.slice("SKIFF_PANE=".length);
    if (pane === undefined || readText(`/proc/${entry.name}/comm`)?.trim() !== "bash") continue;
    shells.set(pane, [...(shells.get(pane) ?? []), Number(entry.name)]);
  }
  return shells;
}

Deno.test("issue 28, case 1: daemon stop returns once skiffd has exited: kill -0 fails at once", async () => {
  await withSkiff(async (skiff) => {
    await openPanes(skiff);
    for (let round = 0; round < 3; round++) {
      const pid = await skiff.daemonPid();
      assert(pid !== undefined, "skiffd wrote its pid");
      const result = await bash(
        skiff,
        `${SKIFF} daemon stop || exit 90; if kill -0 ${pid} 2>/dev/null; then echo "still there"; ` +
          `cat /proc/${pid}/status; exit 91; fi`,
      );
      assertEquals(result.code, 0, result.out);
      assertEquals(result.out, `skiffd stopped (pid ${pid})\n`);
      await skiff.ok(["daemon", "start"]);
    }
  });
});

Deno.test("issue 28, case 1: stop && start 20 times with panes open: never two skiffd at once, each pane restored once a start", async () => {
  await withSkiff(async (skiff) => {
    await openPanes(skiff);
    const before = (await skiff.json<{ panes: { id: string; name: string }[] }>(["ls"])).panes;
    const watch = new SkiffdWatch(skiff.socket);
    let loop: { code: number; out: string };
    try {
      loop = await bash(
        skiff,
        `for i in $(seq 20); do ${SKIFF} daemon stop >/dev/null && ${SKIFF} daemon start ` +
          `>/dev/null || { echo "failed at $i"; exit 1; }; done`,
      );
    } finally {
      await watch.stop();
    }
    assertEquals(loop.code, 0, loop.out + await logTail(skiff));
    assert(watch.samples > 100, `the watch looked ${watch.samples} times`);
    assertEquals(watch.seen.length, 21, `a skiffd per start: ${watch.seen}`);
    assertEquals(watch.most, 1, `skiffd processes at once: ${watch.mostPids.join(", ")}`);

    // The same panes, each restored once by each of the 20 starts, each with one shell now.
    const after = (await skiff.json<{ panes: { id: string; name: string; status: string }[] }>([
      "ls",
    ])).panes;
    assertEquals(
      after.map((p) => [p.id, p.name, p.status]),
      before.map((p) => [p.id, p.name, "running"]),
    );
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    for (const pane of before) {
      const restores = log.match(new RegExp(`pane ${pane.id} \\(${pane.name}\\) restored as`, "g"));
      assertEquals(restores?.length, 20, `${pane.id} restored once per start`);
    }
    const shells = await waitFor("one shell per pane", () => {
      const found = paneShells(skiff);
      return [...found.values()].every((pids) => pids.length === 1) && found.size === 4 && found;
    });
    assertEquals([...shells.keys()].sort(), before.map((p) => p.id));
  });
});

Deno.test("issue 28, case 1: a start while skiffd is still stopping waits for it, then starts the next one", async () => {
  await withSkiff(async (skiff) => {
    await openPanes(skiff);
    // A pane that ignores the hang-up: skiffd's stop waits a moment before it kills it.
    await skiff.ok([
      "new",
      "--name",
      "stubborn",
      "--",
      ...BASH,
      "-c",
      'trap "" HUP; exec sleep 600',
    ]);
    const old = (await skiff.daemonPid())!;
    // The old skiffd may still be a zombie when the new one starts: that holds nothing.
    const watch = new SkiffdWatch(skiff.socket, { live: true });
    try {
      // The stop is asked, not waited for: the start comes while the old skiffd ends its panes.
      const client = await DaemonClient.connect(skiff.socket);
      await client.call("daemon.stop", {});
      client.close();
      const started = await skiff.json<{ started: boolean; pid: number }>(["daemon", "start"]);
      assertEquals(started.started, true, "a new skiffd, not the one stopping");
      assert(started.pid !== old, `a new pid: ${started.pid}`);
      // Commands find the new one, with every pane restored.
      const panes = (await skiff.json<{ panes: { name: string; status: string }[] }>(["ls"]))
        .panes;
      assertEquals(
        panes.map((p) => [p.name, p.status]),
        [...PANES, "stubborn"].map((n) => [n, "running"]),
      );
      const status = await skiff.ok(["daemon", "status"]);
      assertMatch(status, new RegExp(`pid ${started.pid}, `));
    } finally {
      await watch.stop();
    }
    assertEquals(watch.most, 1, `skiffd processes at once: ${watch.mostPids.join(", ")}`);
  });
});

Deno.test("issue 28, case 1: two stops at once both wait until skiffd has exited", async () => {
  await withSkiff(async (skiff) => {
    await openPanes(skiff);
    // A pane that ignores the hang-up makes the stop take a while: the second stop meets it.
    await skiff.ok([
      "new",
      "--name",
      "stubborn",
      "--",
      ...BASH,
      "-c",
      'trap "" HUP; exec sleep 600',
    ]);
    const pid = (await skiff.daemonPid())!;
    const result = await bash(
      skiff,
      `${SKIFF} daemon stop > "$HOME/one" & one=$!; ${SKIFF} daemon stop > "$HOME/two" & two=$!; ` +
        `wait $one || exit 90; kill -0 ${pid} 2>/dev/null && exit 91; ` +
        `wait $two || exit 92; kill -0 ${pid} 2>/dev/null && exit 93; exit 0`,
    );
    assertEquals(result.code, 0, result.out);
    for (const file of ["one", "two"]) {
      assertEquals(
        await Deno.readTextFile(join(skiff.env.HOME, file)),
        `skiffd stopped (pid ${pid})\n`,
      );
    }
  });
});

/** Runs `skiff daemon stop`, timing it; killed after 40 s, so a stop that hangs fails the test. */
async function timedStop(skiff: SkiffEnv): Promise<{ code: number; stderr: string; ms: number }> {
  const started = Date.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "-q", MAIN, "daemon", "stop"],
    env: skiff.env,
    clearEnv: true,
    cwd: skiff.env.HOME,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(40_000),
  }).output();
  return {
    code: output.code,
    stderr: new TextDecoder().decode(output.stderr),
    ms: Date.now() - started,
  };
}

/** The line a stop ends with when skiffd `pid` is still there after its 10 s. */
function notStoppedLine(skiff: SkiffEnv, pid: number): string {
  return `skiff: skiffd (pid ${pid}) did not stop within 10 s; it still runs. ` +
    `See ${join(skiff.root, "run", "skiffd.log")}\n`;
}

Deno.test("issue 28, case 1: a skiffd that hangs and never answers: stop ends at 10 s with its line, exit 4", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh1", "--", ...BASH]);
    const pid = (await skiff.daemonPid())!;
    // Stopped by a signal, it takes connections and answers none: a hung skiffd.
    Deno.kill(pid, "SIGSTOP");
    try {
      const stop = await timedStop(skiff);
      assertEquals([stop.code, stop.stderr], [4, notStoppedLine(skiff, pid)]);
      assert(stop.ms >= 9_500 && stop.ms < 20_000, `the stop took ${stop.ms} ms`);
      assert(pidAlive(pid), "skiffd is still there, as the line says");
    } finally {
      Deno.kill(pid, "SIGCONT");
    }
    // Going again, it stops as asked.
    assertEquals(await skiff.ok(["daemon", "stop"]), `skiffd stopped (pid ${pid})\n`);
  });
});

Deno.test("issue 28, case 1: a skiffd that takes the stop and does not end: stop ends at 10 s with its line, exit 4", async () => {
  await withSkiff(async (skiff) => {
    // A pane that ignores the hang-up holds skiffd's stop for a moment: it is held there.
    await skiff.ok([
      "new",
      "--name",
      "stubborn",
      "--",
      ...BASH,
      "-c",
      'trap "" HUP; exec sleep 600',
    ]);
    const pid = (await skiff.daemonPid())!;
    const log = join(skiff.root, "run", "skiffd.log");
    const stopping = timedStop(skiff);
    try {
      await waitFor(
        "skiffd to take the stop",
        async () => (await Deno.readTextFile(log)).includes("stopping: stopped"),
        { interval: 5 },
      );
      Deno.kill(pid, "SIGSTOP");
      const stop = await stopping;
      assertEquals([stop.code, stop.stderr], [4, notStoppedLine(skiff, pid)]);
      assert(stop.ms >= 9_500 && stop.ms < 20_000, `the stop took ${stop.ms} ms`);
      assert(pidAlive(pid), "skiffd is still there, as the line says");
    } finally {
      Deno.kill(pid, "SIGCONT");
      await stopping.catch(() => {});
    }
    // Let go, it ends the stop it took.
    await waitFor("skiffd to end", () => !pidAlive(pid));
  });
});
