/**
 * How a link to another host should carry skiffd's protocol: the
 * measurement behind the choice written down in `lib/hosts/mod.ts` and
 * docs/hosts.md. Not part of `deno task bench`'s table (it compares two designs,
 * one of which Skiff does not ship); run it on its own:
 *
 * ```sh
 * deno run -A bench/hosts_transport.ts
 * ```
 *
 * Both designs run over one real SSH connection to a loopback sshd, to a
 * second skiffd (its own HOME, state and socket) on the "remote" end:
 *
 * - **(a) a stdio bridge**: `ssh HOST deno run bridge.ts SOCKET` runs a
 *   bridge on the remote end, and a local multiplexer (standing in for a
 *   skiffd service) carries every local connection as a logical channel
 *   over the bridge's stdio: two JavaScript hops, one at each end.
 * - **(b) OpenSSH forwarding**: one ControlMaster (`ssh -M -S CTL -N`) and
 *   a stream-local forward added to it (`ssh -S CTL -O forward -L
 *   LOCAL.sock:REMOTE.sock`); every connection to LOCAL.sock is a channel
 *   that ssh and sshd carry to the remote socket, no JavaScript in between.
 *
 * Rows: bringing the link up; a new connection with `hello` and `pane.list`
 * (what every CLI call does); a round trip on a connection already open
 * (what an attach's keystroke and echo pay); and an attach's throughput
 * (a pane printing 8 MB).
 *
 * @module
 */

import { join } from "node:path";
import { startSshd } from "../tests/helpers/sshd.ts";
import { Frame, FrameReader } from "../lib/protocol/frames.ts";
import { isolatedEnv, median, rss, sh, skiff } from "./harness.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The remote end of design (a): stdio ⇄ one connection per logical channel. */
const BRIDGE = `
const socket = Deno.args[0];
const conns = new Map();
const out = Deno.stdout;
let writing = Promise.resolve();
function send(type, chan, payload = new Uint8Array(0)) {
  const frame = new Uint8Array(9 + payload.length);
  const view = new DataView(frame.buffer);
  frame[0] = type; view.setUint32(1, chan); view.setUint32(5, payload.length);
  frame.set(payload, 9);
  writing = writing.then(async () => { let o = 0; while (o < frame.length) o += await out.write(frame.subarray(o)); });
}
async function pump(chan, conn) {
  const buf = new Uint8Array(65536);
  try { for (;;) { const n = await conn.read(buf); if (n === null) break; send(2, chan, buf.slice(0, n)); } } catch {}
  send(3, chan); conns.delete(chan);
}
let pending = new Uint8Array(0);
const buf = new Uint8Array(65536);
for (;;) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const joined = new Uint8Array(pending.length + n); joined.set(pending); joined.set(buf.subarray(0, n), pending.length);
  let at = 0;
  while (joined.length - at >= 9) {
    const view = new DataView(joined.buffer, at);
    const type = joined[at], chan = view.getUint32(1), len = view.getUint32(5);
    if (joined.length - at - 9 < len) break;
    const payload = joined.slice(at + 9, at + 9 + len);
    at += 9 + len;
    if (type === 1) {
      const p = Deno.connect({ transport: "unix", path: socket }).then((c) => { conns.set(chan, c); pump(chan, c); return c; });
      conns.set(chan, p);
    } else if (type === 2) {
      const c = await conns.get(chan); if (c) { let o = 0; while (o < payload.length) o += await c.write(payload.subarray(o)); }
    } else if (type === 3) {
      const c = await conns.get(chan); try { c?.close(); } catch {} conns.delete(chan);
    }
  }
  pending = joined.slice(at);
}
`;

/** The local end of design (a): a listener whose connections become channels over ssh's stdio. */
class Multiplexer {
  readonly #child: Deno.ChildProcess;
  readonly #listener: Deno.Listener;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #conns = new Map<number, Deno.Conn>();
  #next = 1;

  constructor(child: Deno.ChildProcess, path: string) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#listener = Deno.listen({ transport: "unix", path });
    void this.#accept();
    void this.#read();
  }

  #send(type: number, chan: number, payload = new Uint8Array(0)): Promise<void> {
    const frame = new Uint8Array(9 + payload.length);
    const view = new DataView(frame.buffer);
    frame[0] = type;
    view.setUint32(1, chan);
    view.setUint32(5, payload.length);
    frame.set(payload, 9);
    return this.#writer.write(frame);
  }

  async #accept(): Promise<void> {
    for await (const conn of this.#listener) {
      const chan = this.#next++;
      this.#conns.set(chan, conn);
      await this.#send(1, chan);
      (async () => {
        const buf = new Uint8Array(65536);
        try {
          for (;;) {
            const n = await conn.read(buf);
            if (n === null) break;
            await this.#send(2, chan, buf.slice(0, n));
          }
        } catch {
          // Closed.
        }
        await this.#send(3, chan).catch(() => {});
      })();
    }
  }

  async #read(): Promise<void> {
    let pending = new Uint8Array(0);
    for await (const chunk of this.#child.stdout) {
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      let at = 0;
      while (joined.length - at >= 9) {
        const view = new DataView(joined.buffer, at);
        const type = joined[at];
        const chan = view.getUint32(1);
        const len = view.getUint32(5);
        if (joined.length - at - 9 < len) break;
        const payload = joined.subarray(at + 9, at + 9 + len);
        at += 9 + len;
        const conn = this.#conns.get(chan);
        if (type === 2 && conn) {
          let o = 0;
          while (o < payload.length) o += await conn.write(payload.subarray(o)).catch(() => len);
        } else if (type === 3 && conn) {
          this.#conns.delete(chan);
          try {
            conn.close();
          } catch {
            // Closed.
          }
        }
      }
      pending = joined.slice(at);
    }
  }

  close(): void {
    this.#listener.close();
    try {
      this.#child.kill();
    } catch {
      // Gone.
    }
  }
}

/** A JSON-lines connection to a skiffd socket, for timing. */
class Rpc {
  readonly #conn: Deno.UnixConn;
  #buffer = "";
  #id = 0;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
  }

  static async open(path: string): Promise<Rpc> {
    const rpc = new Rpc(await Deno.connect({ transport: "unix", path }));
    await rpc.call("hello", { protocol: 1, client: "bench" });
    return rpc;
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id;
    const line = encoder.encode(JSON.stringify({ id, method, params }) + "\n");
    let o = 0;
    while (o < line.length) o += await this.#conn.write(line.subarray(o));
    const buf = new Uint8Array(1 << 20);
    for (;;) {
      const newline = this.#buffer.indexOf("\n");
      if (newline !== -1) {
        const text = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const message = JSON.parse(text);
        if (message.id === id) return message.result;
        continue;
      }
      const n = await this.#conn.read(buf);
      if (n === null) throw new Error("closed");
      this.#buffer += decoder.decode(buf.subarray(0, n));
    }
  }

  /** Attaches to `pane`, runs `start`, and times the output until `END42` shows; returns ms. */
  async attachFlood(pane: string, start: () => Promise<void>): Promise<number> {
    const request = JSON.stringify({
      id: 0,
      method: "attach",
      params: { pane, cols: 80, rows: 24 },
    });
    await this.#conn.write(encoder.encode(request + "\n"));
    const frames = new FrameReader();
    const buf = new Uint8Array(1 << 16);
    let answered = false;
    let started = false;
    let tail = "";
    let t0 = 0;
    for (;;) {
      const n = await this.#conn.read(buf);
      if (n === null) throw new Error("the attach ended");
      let bytes = buf.subarray(0, n);
      if (!answered) {
        const newline = bytes.indexOf(0x0a);
        if (newline === -1) continue;
        answered = true;
        bytes = bytes.subarray(newline + 1);
      }
      for (const frame of frames.push(bytes)) {
        if (frame.type !== Frame.OUTPUT) continue;
        if (!started) continue;
        // The clock starts at the flood's first bytes, not at the start of the program that types it.
        if (t0 === 0 && frame.payload.includes(0x78)) t0 = performance.now();
        tail = (tail + decoder.decode(frame.payload)).slice(-64);
      }
      if (!started) {
        started = true;
        void start();
      }
      if (/END42/.test(tail)) return performance.now() - t0;
    }
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Closed.
    }
  }
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function line(what: string, values: number[], unit = "ms"): string {
  const min = Math.min(...values).toFixed(2);
  const max = Math.max(...values).toFixed(2);
  return `${what.padEnd(58)} ${median(values).toFixed(2).padStart(8)} ${unit} (${min}–${max})`;
}

if (import.meta.main) {
  const remote = await isolatedEnv();
  const dir = await Deno.makeTempDir({ prefix: "skiff-transport-" });
  const sshd = await startSshd(dir, remote.env);
  const ctl = join(dir, "ctl");
  const forwarded = join(dir, "fwd.sock");
  const muxed = join(dir, "mux.sock");
  const ssh = (args: string[], stdio: "piped" | "null" = "null") =>
    new Deno.Command("ssh", {
      args: [...sshd.options, "-o", "BatchMode=yes", ...args],
      stdin: stdio,
      stdout: stdio === "null" ? "piped" : stdio,
      stderr: "piped",
    });
  let master: Deno.ChildProcess | undefined;
  let mux: Multiplexer | undefined;
  try {
    const socket = remote.env.SKIFF_SOCKET;
    await skiff(["daemon", "start"], remote.env);
    const pane = (await skiff(["new", "--", "sh"], remote.env)).trim();
    const report: string[] = [];

    // (b) ControlMaster and a stream-local forward.
    const upB = await time(async () => {
      master = new Deno.Command("ssh", {
        args: [...sshd.options, "-o", "BatchMode=yes", "-M", "-S", ctl, "-N", sshd.dest],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      while (!(await Deno.stat(ctl).then(() => true, () => false))) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const out = await ssh(["-S", ctl, "-O", "forward", "-L", `${forwarded}:${socket}`, sshd.dest])
        .output();
      if (!out.success) throw new Error(decoder.decode(out.stderr));
    });
    // (a) one ssh session running a bridge on the remote end.
    const bridge = join(dir, "bridge.js");
    await Deno.writeTextFile(bridge, BRIDGE);
    const upA = await time(async () => {
      const child = ssh([
        "-S",
        ctl,
        sshd.dest,
        `${Deno.execPath()} run -A -q ${bridge} ${socket}`,
      ], "piped").spawn();
      mux = new Multiplexer(child, muxed);
      // Ready once a call goes through.
      const rpc = await Rpc.open(muxed);
      rpc.close();
    });
    report.push(
      `link up: (b) master + forward ${upB.toFixed(0)} ms; ` +
        `(a) a bridge session over that master, to its first answer ${upA.toFixed(0)} ms ` +
        `(the remote Deno's start)`,
    );

    // Samples alternate between the three paths, so a burst of load on this machine falls on
    // each of them alike.
    const paths = { "local socket": socket, "(b) forward": forwarded, "(a) bridge": muxed };
    const perCall: Record<string, number[]> = {};
    for (let i = 0; i < 60; i++) {
      for (const [name, path] of Object.entries(paths)) {
        (perCall[name] ??= []).push(
          await time(async () => {
            const rpc = await Rpc.open(path);
            await rpc.call("pane.list");
            rpc.close();
          }),
        );
      }
    }
    for (const [name, values] of Object.entries(perCall)) {
      report.push(line(`new connection + hello + pane.list: ${name}`, values));
    }
    const open = Object.fromEntries(
      await Promise.all(
        Object.entries(paths).map(async ([name, path]) => [name, await Rpc.open(path)] as const),
      ),
    );
    const trips: Record<string, number[]> = {};
    for (let i = 0; i < 300; i++) {
      for (const [name, rpc] of Object.entries(open)) {
        (trips[name] ??= []).push(await time(() => rpc.call("pane.get", { pane })));
      }
    }
    for (const rpc of Object.values(open)) rpc.close();
    for (const [name, values] of Object.entries(trips)) {
      report.push(line(`round trip on an open connection: ${name}`, values));
    }

    const BYTES = 32 << 20;
    const throughput = async (path: string) => {
      const rates: number[] = [];
      for (let round = 0; round < 3; round++) {
        const rpc = await Rpc.open(path);
        const ms = await rpc.attachFlood(pane, async () => {
          await skiff(
            ["keys", pane, `head -c ${BYTES} /dev/zero | tr '\\0' x; echo END$((40+2))`, "Enter"],
            remote.env,
          );
        });
        rpc.close();
        rates.push((BYTES / (1 << 20)) / (ms / 1000));
        await skiff(["keys", pane, "clear", "Enter"], remote.env);
      }
      return rates;
    };
    report.push(
      line("attach throughput, 32 MB of output: local socket", await throughput(socket), "MB/s"),
    );
    report.push(
      line("attach throughput, 32 MB of output: (b) forward", await throughput(forwarded), "MB/s"),
    );
    report.push(
      line("attach throughput, 32 MB of output: (a) bridge", await throughput(muxed), "MB/s"),
    );
    const bridgePid = Number(
      (await sh("pgrep", ["-f", `^${Deno.execPath()} run -A -q ${bridge}`])).trim().split("\n")[0],
    );
    report.push(
      `memory: (b) the ssh master ${(rss(master!.pid) / 1048576).toFixed(1)} MB locally, ` +
        `nothing more remotely; (a) the same ssh, plus the bridge's Deno ` +
        `${(rss(bridgePid) / 1048576).toFixed(1)} MB on the remote end`,
    );
    console.log(report.join("\n"));
  } finally {
    mux?.close();
    await ssh(["-S", ctl, "-O", "exit", sshd.dest]).output().catch(() => {});
    try {
      master?.kill();
    } catch {
      // Gone.
    }
    await skiff(["daemon", "stop"], remote.env).catch(() => {});
    await sshd.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(remote.root, { recursive: true }).catch(() => {});
  }
}
