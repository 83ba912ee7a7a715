import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { RawSocket } from "../helpers/raw_socket.ts";
import { encodeFrame, Frame, FrameReader } from "../../lib/protocol/frames.ts";
import { joinBytes } from "../../lib/platform/bytes.ts";
import {
  BASH,
  decodeOutput,
  hasCommand,
  pidAlive,
  type SkiffEnv,
  waitFor,
  withSkiff,
} from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import { PROTOCOL_VERSION } from "../../lib/version.ts";

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

Deno.test("one daemon per socket: start is idempotent and status reports it", async () => {
  await withSkiff(async (skiff) => {
    const down = await skiff.run(["daemon", "status", "--json"]);
    assertEquals(down.code, 4);
    assertEquals(JSON.parse(down.stdout).running, false);
    // Two starts at once still give one daemon.
    const [a, b] = await Promise.all([
      skiff.json<{ pid: number }>(["daemon", "start"]),
      skiff.json<{ pid: number }>(["daemon", "start"]),
    ]);
    assertEquals(a.pid, b.pid);
    const again = await skiff.run(["daemon", "start"]);
    assertEquals(again.code, 0);
    assertEquals(again.stdout, `skiffd is already running (pid ${a.pid})\n`);
    const foreground = await skiff.run(["daemon", "run"]);
    assertEquals(foreground.code, 0);
    assertMatch(foreground.stdout, /already running/);
    const status = await skiff.json<Record<string, unknown>>(["daemon", "status"]);
    assertEquals(status.running, true);
    assertEquals(status.pid, a.pid);
    assertEquals(status.socket, skiff.socket);
    assertEquals(status.panes, 0);
    assert(typeof status.uptime_ms === "number" && typeof status.version === "string");
    const stopped = await skiff.json<{ stopped: boolean }>(["daemon", "stop"]);
    assertEquals(stopped.stopped, true);
    assert(!pidAlive(a.pid), "the daemon process is gone");
    assertEquals((await skiff.run(["daemon", "stop"])).stdout, "skiffd is not running\n");
  });
});

Deno.test("socket folder is 0700 and the socket 0600", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const dir = await Deno.stat(join(skiff.root, "run"));
    const socket = await Deno.stat(skiff.socket);
    assertEquals(dir.mode! & 0o777, 0o700);
    assertEquals(socket.mode! & 0o777, 0o600);
    assert(socket.isSocket, "it is a socket");
    const state = await Deno.stat(join(skiff.root, "state"));
    assertEquals(state.mode! & 0o777, 0o700);
  });
});

Deno.test({
  name: "a peer with another uid is refused",
  ignore: Deno.uid() !== 0 || !hasCommand("setpriv"),
  fn: async () => {
    await withSkiff(async (skiff) => {
      await skiff.ok(["daemon", "start"]);
      // Open the folder and socket to everyone, so that only the uid check stands.
      await Deno.chmod(skiff.root, 0o755);
      await Deno.chmod(join(skiff.root, "run"), 0o755);
      await Deno.chmod(skiff.socket, 0o666);
      const out = await asNobody(skiff.socket);
      assertEquals(out.code, 0, out.stderr);
      const [line, end] = out.stdout.trim().split("\n");
      assertEquals(JSON.parse(line).error.code, "forbidden");
      assertEquals(end, "closed", "skiffd hangs up on it after the one line");
      const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
      assertMatch(log, /refused a connection from uid 65534/);
      // The daemon still serves its owner.
      await skiff.ok(["ls"]);
    });
  },
});

Deno.test({
  name: "with the socket 0600 in a 0700 folder another user cannot even reach it",
  ignore: Deno.uid() !== 0 || !hasCommand("setpriv"),
  fn: async () => {
    await withSkiff(async (skiff) => {
      await skiff.ok(["daemon", "start"]);
      // Only the socket's own folder keeps them out: its parents are open to all.
      await Deno.chmod(skiff.root, 0o755);
      assertEquals((await Deno.stat(join(skiff.root, "run"))).mode! & 0o777, 0o700);
      const out = await asNobody(skiff.socket);
      assertEquals(out.code, 0, out.stderr);
      assertEquals(out.stdout.trim(), "PermissionError");
      // Opening the folder is not enough either: the socket itself is 0600.
      await Deno.chmod(join(skiff.root, "run"), 0o755);
      assertEquals((await asNobody(skiff.socket)).stdout.trim(), "PermissionError");
      const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
      assert(!/refused a connection/.test(log), "nothing even reached skiffd");
    });
  },
});

/**
 * Connects to `socket` as user 65534 (nobody), says hello, and prints the
 * answer and `closed` once skiffd hangs up, or the name of the error.
 */
async function asNobody(socket: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = [
    "import socket,sys",
    "s=socket.socket(socket.AF_UNIX)",
    "try:",
    `  s.connect(${JSON.stringify(socket)})`,
    "except OSError as e:",
    "  print(type(e).__name__); sys.exit(0)",
    `s.sendall(b'{"id":1,"method":"hello","params":{"protocol":1}}\\n')`,
    "data=b''",
    "while True:",
    "  chunk=s.recv(4096)",
    "  if not chunk: break",
    "  data+=chunk",
    "print(data.decode().strip()); print('closed')",
  ].join("\n");
  const out = await new Deno.Command("setpriv", {
    args: ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return decodeOutput(out);
}

Deno.test("malformed and oversized frames get an error and never stall the daemon", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const sock = await RawSocket.connect(skiff.socket);
    const early = await sock.request(1, "pane.list");
    assertEquals((early.error as { code: string }).code, "hello_required");
    const hello = await sock.request(2, "hello", { protocol: 1 });
    assertEquals((hello.result as { protocol: number }).protocol, 1);

    await sock.send("this is not json\n");
    assertEquals(((await sock.readJson()).error as { code: string }).code, "bad_frame");
    await sock.send("[1,2,3]\n");
    assertEquals(((await sock.readJson()).error as { code: string }).code, "bad_request");
    await sock.send('{"id":5,"method":"pane.list","params":"nope"}\n');
    const badParams = await sock.readJson();
    assertEquals(badParams.id, 5);
    assertEquals((badParams.error as { code: string }).code, "bad_request");
    const unknown = await sock.request(6, "no.such.method");
    assertEquals((unknown.error as { code: string }).code, "unknown_method");
    const wrongType = await sock.request(7, "pane.capture", { pane: 42 });
    assertEquals((wrongType.error as { code: string; message: string }).code, "usage");
    const mismatch = await sock.request(8, "hello", { protocol: 999 });
    assertEquals((mismatch.error as { code: string }).code, "protocol_mismatch");

    // 3 MB without a newline, sent in pieces, then a valid request on the same connection.
    const big = "x".repeat(1 << 20);
    for (let i = 0; i < 3; i++) await sock.send(big);
    await sock.send("\n");
    assertEquals(((await sock.readJson()).error as { code: string }).code, "frame_too_large");
    const after = await sock.request(9, "pane.list");
    assertEquals((after.result as { panes: unknown[] }).panes, []);

    // Half a frame, then a hang-up: the daemon shrugs it off.
    const rude = await RawSocket.connect(skiff.socket);
    await rude.send('{"id":1,"method":"hel');
    rude.close();
    sock.close();
    assertEquals((await skiff.run(["ls", "--json"])).code, 0);
  });
});

Deno.test("a request sent right behind a refused hello is refused too, and does nothing", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    // Both lines in one write, as a client asks its first request ahead of the hello's answer.
    const refused = await RawSocket.connect(skiff.socket);
    await refused.send(
      '{"id":1,"method":"hello","params":{"protocol":999}}\n' +
        '{"id":2,"method":"pane.new","params":{"command":["sh"]}}\n',
    );
    const hello = await refused.readJson();
    assertEquals([hello.id, (hello.error as { code: string }).code], [1, "protocol_mismatch"]);
    const ahead = await refused.readJson();
    assertEquals([ahead.id, (ahead.error as { code: string }).code], [2, "hello_required"]);
    refused.close();
    assertEquals(JSON.parse(await skiff.ok(["ls", "--json"])).panes, []);
    // Behind a good hello, the request is answered in the same round trip.
    const greeted = await RawSocket.connect(skiff.socket);
    await greeted.send(
      '{"id":1,"method":"hello","params":{"protocol":1}}\n' +
        '{"id":2,"method":"workspace.list","params":{}}\n',
    );
    assertEquals((await greeted.readJson()).id, 1);
    const listed = await greeted.readJson();
    assertEquals([listed.id, (listed.result as { panes: unknown[] }).panes], [2, []]);
    greeted.close();
  });
});

Deno.test("frames sent right behind an attach request are read as frames; after a refused attach, as lines", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "quick", "--", ...BASH]);
    const conn = await Deno.connect({ transport: "unix", path: skiff.socket });
    const line = (id: number, method: string, params: Record<string, unknown>) =>
      new TextEncoder().encode(JSON.stringify({ id, method, params }) + "\n");
    // All in one write, as an impatient client would: nothing waits for an answer.
    const burst = joinBytes([
      line(1, "hello", { protocol: 1 }),
      line(2, "attach", { pane: "nope" }),
      line(3, "pane.list", {}),
      line(4, "attach", { pane: "quick", cols: 90, rows: 20 }),
      encodeFrame(Frame.RESIZE, JSON.stringify({ cols: 100, rows: 25 })),
      encodeFrame(Frame.INPUT, "echo piped-in | tr a-z A-Z\r"),
    ]);
    let bytes = burst;
    while (bytes.length > 0) bytes = bytes.subarray(await conn.write(bytes));
    let buffer: Uint8Array = new Uint8Array(0);
    const answers: Record<string, unknown>[] = [];
    const chunk = new Uint8Array(65536);
    const deadline = Date.now() + 10_000;
    const more = async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const n = await Promise.race([
        conn.read(chunk),
        new Promise<"late">((resolve) => {
          timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      if (n === "late") throw new Error(`no more answers or frames; so far: ${answers.length}`);
      if (n === null) throw new Error("skiffd closed the connection");
      buffer = joinBytes([buffer, chunk.subarray(0, n)]);
    };
    while (answers.length < 4) {
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) {
        await more();
        continue;
      }
      answers.push(JSON.parse(new TextDecoder().decode(buffer.subarray(0, newline))));
      buffer = buffer.slice(newline + 1);
    }
    assertEquals(answers.map((a) => a.id), [1, 2, 3, 4], "answers in order");
    assertEquals((answers[1].error as { code: string }).code, "not_found");
    assertEquals((answers[2].result as { panes: PaneInfo[] }).panes.length, 1);
    assertEquals((answers[3].result as PaneInfo).name, "quick");
    // The rest is frames: the pane's screen, then the echo of what the INPUT frame typed.
    const reader = new FrameReader();
    let output = "";
    for (;;) {
      for (const frame of reader.push(buffer)) output += new TextDecoder().decode(frame.payload);
      buffer = new Uint8Array(0);
      if (output.includes("PIPED-IN\r\n")) break;
      await more();
    }
    conn.close();
    const info = (await panes(skiff))[0];
    assertEquals([info.cols, info.rows], [100, 25], "the RESIZE frame was read as one");
  });
});

Deno.test("20 concurrent clients are all answered", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "shared", "--", ...BASH]);
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => RawSocket.connect(skiff.socket)),
    );
    const results = await Promise.all(clients.map(async (sock, n) => {
      await sock.request(0, "hello", { protocol: 1 });
      const names: string[] = [];
      for (let i = 1; i <= 25; i++) {
        const answer = await sock.request(i, i % 2 ? "pane.list" : "pane.capture", {
          pane: "shared",
        });
        assertEquals(answer.id, i, `client ${n} gets its own answers in order`);
        const result = answer.result as { panes?: PaneInfo[]; name?: string };
        names.push(result.panes ? result.panes[0].name : result.name!);
      }
      sock.close();
      return names;
    }));
    assertEquals(results.length, 20);
    for (const names of results) assertEquals(new Set(names), new Set(["shared"]));
    // And 5 real CLI processes at once.
    const runs = await Promise.all(Array.from({ length: 5 }, () => skiff.run(["ls", "--json"])));
    for (const run of runs) assertEquals(run.code, 0, run.stderr);
  });
});

Deno.test("reload re-reads the config and keeps every pane's process and generation", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "keep", "--", ...BASH]);
    await skiff.ok(["keys", "keep", "export MARKER=still-here", "Enter"]);
    const before = (await panes(skiff))[0];
    const daemonBefore = await skiff.daemonPid();
    await Deno.mkdir(join(skiff.root, "config"), { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      `# my projects\n[projects.site]\nroot = "${skiff.root}"\n`,
    );
    const reloaded = await skiff.json<{ projects: number }>(["daemon", "reload"]);
    assertEquals(reloaded.projects, 1);
    const after = (await panes(skiff))[0];
    assertEquals(after.pid, before.pid);
    assertEquals(after.generation, before.generation);
    assertEquals(await skiff.daemonPid(), daemonBefore);
    await skiff.ok(["keys", "keep", "echo $MARKER", "Enter"]);
    await skiff.waitForScreen("keep", /^still-here$/m);

    // A broken config is refused, with file:line:col, and the old one stays.
    await Deno.writeTextFile(skiff.configFile, "[projects.site\nroot = 1\n");
    const broken = await skiff.run(["daemon", "reload"]);
    assertEquals(broken.code, 2);
    assertMatch(broken.stderr, /^skiff: .*projects\.toml:1:\d+: .+\n$/);
    assertEquals((await panes(skiff))[0].generation, before.generation);
  });
});

Deno.test("kill -9 of skiffd, then any command, restores ids, names, marks and folders", async () => {
  await withSkiff(async (skiff) => {
    const dir = join(skiff.root, "work");
    await Deno.mkdir(dir);
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--session", "crew", "--", ...BASH]);
    await skiff.ok(["mark", "crew", "role=builder"]);
    await skiff.ok(["keys", "one", `cd ${dir}`, "Enter"]);
    // ls re-reads each pane's folder (the daemon also does so every few seconds).
    await waitFor("the new folder to be saved", async () => {
      await skiff.ok(["ls"]);
      const text = await Deno.readTextFile(join(skiff.root, "state", "skiffd.workspace.json"));
      return text.includes(dir);
    });
    const before = await panes(skiff);
    const pid = (await skiff.daemonPid())!;
    Deno.kill(pid, "SIGKILL");
    await waitFor("the daemon to die", () => !pidAlive(pid));
    for (const pane of before) {
      await waitFor(`pane ${pane.name}'s shell to end`, () => !pidAlive(pane.pid!));
    }

    const after = await panes(skiff);
    assertNotEquals(await skiff.daemonPid(), pid);
    assertEquals(
      after.map((p) => [p.id, p.name, p.session_name]),
      before.map((p) => [p.id, p.name, p.session_name]),
    );
    for (let i = 0; i < after.length; i++) {
      assert(after[i].generation > before[i].generation, "a restore gives a new generation");
      assertNotEquals(after[i].pid, before[i].pid);
      assertEquals(after[i].command, ["/bin/bash"], "a restored pane runs the login shell");
    }
    assertEquals(after[0].cwd, dir);
    assertEquals(await skiff.ok(["mark", "crew"]), "role=builder\n");
    await skiff.ok(["keys", "one", "echo restored-$PWD", "Enter"]);
    await skiff.waitForScreen("one", new RegExp(`^restored-${dir}$`, "m"));
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertMatch(log, /removing stale socket/);
  });
});

Deno.test("daemon restart brings every pane back as a new shell under its old id", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "r1", "--", ...BASH]);
    await skiff.ok(["mark", "r1", "keep=yes"]);
    const before = await panes(skiff);
    const restarted = await skiff.json<{ old_pid: number; pid: number }>(["daemon", "restart"]);
    assertNotEquals(restarted.pid, restarted.old_pid);
    const after = await panes(skiff);
    assertEquals(after.map((p) => p.id), before.map((p) => p.id));
    assert(after[0].generation > before[0].generation);
    assertEquals(await skiff.ok(["mark", "r1"]), "keep=yes\n");
    const next = (await skiff.ok(["new", "--", ...BASH])).trim();
    assertEquals(next, "p2", "the id counter survives a restart");
  });
});

Deno.test("an unreadable workspace is set aside, never deleted, and the daemon starts", async () => {
  await withSkiff(async (skiff) => {
    const file = join(skiff.root, "state", "skiffd.workspace.json");
    await Deno.mkdir(join(skiff.root, "state"), { recursive: true });
    await Deno.writeTextFile(file, '{"version":1,"panes":[{"id":"p1"'); // cut off mid-write
    assertEquals((await panes(skiff)).length, 0);
    const names = [...Deno.readDirSync(join(skiff.root, "state"))].map((e) => e.name);
    const aside = names.find((n) => n.startsWith("skiffd.workspace.json.unreadable-"));
    assert(aside, `set-aside file among ${names}`);
    assertEquals(
      await Deno.readTextFile(join(skiff.root, "state", aside)),
      '{"version":1,"panes":[{"id":"p1"',
    );
  });
});

Deno.test("terminal queries are answered with no terminal attached", async () => {
  await withSkiff(async (skiff) => {
    // Ask DA1, CPR, XTVERSION and the background colour, then print the answers' bytes.
    const script = [
      "import os,sys,termios,tty,select",
      "fd=sys.stdin.fileno(); tty.setraw(fd)",
      "out=[]",
      "for q in [b'\\x1b[c', b'\\x1b[6n', b'\\x1b[>0q', b'\\x1b]11;?\\x1b\\\\']:",
      "  os.write(1,q); buf=b''",
      "  while select.select([fd],[],[],3)[0]:",
      "    buf+=os.read(fd,100)",
      "    if buf.endswith((b'c',b'R',b'\\x1b\\\\')): break",
      "  out.append(buf.hex())",
      "termios.tcsetattr(fd, termios.TCSANOW, termios.tcgetattr(fd))",
      "os.write(1, ('\\r\\nANSWERS ' + ' '.join(out) + '\\r\\n').encode())",
      "import time; time.sleep(30)",
    ].join("\n");
    await skiff.ok(["new", "--name", "q", "--size", "400x10", "--", "python3", "-c", script]);
    const screen = await skiff.waitForScreen("q", /ANSWERS (\S+) (\S+) (\S+) (\S+)/);
    const [, da1, cpr, xtversion, osc11] = /ANSWERS (\S+) (\S+) (\S+) (\S+)/.exec(screen)!;
    const text = (hex: string) =>
      new TextDecoder().decode(Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16))));
    assertMatch(text(da1), /^\x1b\[\?[\d;]+c$/);
    assertMatch(text(cpr), /^\x1b\[\d+;\d+R$/);
    assertMatch(text(xtversion), /^\x1bP>\|skiff\(.+\)\x1b\\$/);
    assertMatch(text(osc11), /^\x1b\]11;rgb:[0-9a-f]{4}\/[0-9a-f]{4}\/[0-9a-f]{4}\x1b\\$/);
  });
});

Deno.test("heavy output is parsed with flow control and the daemon stays up", async () => {
  await withSkiff(async (skiff) => {
    const file = join(skiff.root, "big.txt");
    const line = "0123456789abcdefghijklmnopqrstuvwxyz".repeat(3) + "\n";
    const count = Math.ceil((24 << 20) / line.length);
    await Deno.writeTextFile(file, line.repeat(count) + "THE-END\n");
    await skiff.ok(["new", "--name", "flood", "--", "sh", "-c", `cat ${file}; sleep 30`]);
    await skiff.waitForScreen("flood", /^THE-END$/m, { timeout: 30_000, interval: 200 });
    const status = await skiff.json<{ running_panes: number }>(["daemon", "status"]);
    assertEquals(status.running_panes, 1);
  });
});

Deno.test("events stream pane changes as JSON lines", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const command = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "-q",
        new URL("../../main.ts", import.meta.url).pathname,
        "events",
        "--json",
        "--count",
        "5",
      ],
      env: skiff.env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Wait until the subscriber is connected before making events.
    await waitFor("the subscriber", async () => {
      const s = await skiff.json<{ clients: number }>(["daemon", "status"]);
      return s.clients >= 2;
    });
    await skiff.ok([
      "new",
      "--name",
      "ev",
      "--",
      "sh",
      "-c",
      "printf '\\033]2;hello\\007\\a'; read x",
    ]);
    await skiff.ok(["rename", "ev", "ev2"]);
    await skiff.ok(["mark", "ev2", "k=v"]);
    await skiff.ok(["kill", "ev2"]);
    const output = await command.output();
    assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
    const events = new TextDecoder().decode(output.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const names = events.map((e) => e.event);
    assertEquals(names[0], "pane-created");
    assertEquals(
      [...names].sort(),
      ["bell", "pane-created", "pane-renamed", "session-marked", "title"],
    );
    const created = events[0];
    assertEquals(created.name, "ev");
    assert(typeof created.generation === "number" && typeof created.time === "string");
    assertEquals(events.find((e) => e.event === "title").title, "hello");
  });
});

Deno.test("stopping the daemon also ends pane programs that ignore SIGHUP", async () => {
  await withSkiff(async (skiff) => {
    const marker = join(skiff.root, "stubborn.pid");
    await skiff.ok([
      "new",
      "--name",
      "stubborn",
      "--",
      "sh",
      "-c",
      `trap '' HUP; sleep 300 & echo $! > ${marker}; wait`,
    ]);
    const pid = await waitFor("the child's pid", async () => {
      const text = await Deno.readTextFile(marker).catch(() => "");
      return text.trim() ? Number(text) : undefined;
    });
    assert(pidAlive(pid), "the stubborn child runs");
    await skiff.ok(["daemon", "stop"]);
    await waitFor("the stubborn child to end", () => !pidAlive(pid), { timeout: 5000 });
  });
});

Deno.test("stop and kill end what a pane's shell left behind: a background job that ignores SIGHUP", async () => {
  await withSkiff(async (skiff) => {
    const pids: number[] = [];
    for (const name of ["stays", "killed"]) {
      const marker = join(skiff.root, `${name}.pid`);
      await skiff.ok(["new", "--name", name, "--", "bash", "--norc"]);
      // A job the shell leaves behind when it goes: in its own group, deaf to the hang-up.
      await skiff.ok([
        "keys",
        name,
        `nohup sleep 300 >/dev/null 2>&1 & echo $! > ${marker}`,
        "Enter",
      ]);
      pids.push(
        await waitFor("the job's pid", async () => {
          const text = await Deno.readTextFile(marker).catch(() => "");
          return text.trim() ? Number(text) : undefined;
        }),
      );
    }
    assert(pids.every(pidAlive), "the jobs run");
    await skiff.ok(["kill", "killed"]);
    await waitFor("the killed pane's job to end", () => !pidAlive(pids[1]), { timeout: 8000 });
    assert(pidAlive(pids[0]), "the other pane's job is not touched by a kill");
    await skiff.ok(["daemon", "stop"]);
    await waitFor("the job to end with skiffd", () => !pidAlive(pids[0]), { timeout: 5000 });
  });
});

Deno.test("reload answers the requests in flight on a connection that also hears events, then ends it", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const sock = await RawSocket.connect(skiff.socket);
    try {
      assertEquals((await sock.request(1, "hello", { protocol: PROTOCOL_VERSION })).id, 1);
      assertEquals((await sock.request(2, "events.subscribe")).id, 2);
      // A wait that is still under way when skiffd reloads: its answer (a timeout) must come.
      await sock.send(
        JSON.stringify({
          id: 3,
          method: "pane.wait",
          params: { pane: "sh", until: "exited", timeout_ms: 1500 },
        }) + "\n",
      );
      await skiff.ok(["daemon", "reload"]);
      const lines: Record<string, unknown>[] = [];
      for (;;) {
        let line: string;
        try {
          line = await sock.readLine(10_000);
        } catch {
          break;
        }
        lines.push(JSON.parse(line));
      }
      // Events went on until then (the reload's own among them), and the wait was answered.
      assert(lines.some((l) => l.event === "daemon-reloaded"), JSON.stringify(lines));
      const answer = lines.find((l) => l.id === 3) as { error?: { code: string } } | undefined;
      assertEquals(answer?.error?.code, "timeout", JSON.stringify(lines));
    } finally {
      sock.close();
    }
  });
});
