/**
 * AttachLink against a small stand-in for skiffd on a real Unix socket:
 * it says hello, answers `attach`, and then speaks frames, so each test can
 * drop or end the connection exactly when it wants.
 */

import { assertEquals } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { AttachLink, type Reattach } from "../../../lib/client/attach_link.ts";
import { encodeFrame, Frame, FrameReader } from "../../../lib/protocol/frames.ts";
import type { PaneInfo } from "../../../lib/protocol/panes.ts";
import { samplePane } from "../../helpers/pane_info.ts";
import { PROTOCOL_VERSION } from "../../../lib/version.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function paneInfo(generation: number): PaneInfo {
  return samplePane("p1", { name: "web", generation, attached: 1 });
}

/** One attached connection, as the stand-in sees it. */
interface Attached {
  conn: Deno.UnixConn;
  params: Record<string, unknown>;
  /** Input bytes received, as text. */
  input: string;
  detached: boolean;
  closed: boolean;
}

/** A stand-in skiffd whose panes' generation the test sets. */
class FakeSkiffd {
  readonly socket: string;
  readonly attached: Attached[] = [];
  generation = 1;
  /** While set, attach requests wait for it (skiffd not serving yet). */
  gate: Promise<void> | undefined;
  #listener: Deno.UnixListener | undefined;

  constructor(socket: string) {
    this.socket = socket;
  }

  listen(): void {
    this.#listener = Deno.listen({ transport: "unix", path: this.socket });
    (async () => {
      for await (const conn of this.#listener!) this.#serve(conn);
    })().catch(() => {});
  }

  stop(): void {
    this.#listener?.close();
    this.#listener = undefined;
    try {
      Deno.removeSync(this.socket);
    } catch {
      // Gone.
    }
  }

  async #serve(conn: Deno.UnixConn): Promise<void> {
    let text = "";
    let attached: Attached | undefined;
    const frames = new FrameReader();
    const buffer = new Uint8Array(65536);
    for (;;) {
      let n: number | null;
      try {
        n = await conn.read(buffer);
      } catch {
        n = null;
      }
      if (n === null) break;
      let chunk = buffer.slice(0, n);
      if (!attached) {
        text += decoder.decode(chunk);
        const newline = text.indexOf("\n");
        if (newline === -1) continue;
        const request = JSON.parse(text.slice(0, newline));
        const rest = encoder.encode(text.slice(newline + 1));
        text = "";
        if (request.method === "hello") {
          const result = { protocol: PROTOCOL_VERSION, version: "test", pid: 1 };
          await conn.write(encoder.encode(JSON.stringify({ id: request.id, result }) + "\n"));
          if (rest.length === 0) continue;
          text = decoder.decode(rest);
          continue;
        }
        await this.gate;
        attached = { conn, params: request.params, input: "", detached: false, closed: false };
        this.attached.push(attached);
        const info = paneInfo(this.generation);
        await conn.write(encoder.encode(JSON.stringify({ id: request.id, result: info }) + "\n"));
        await conn.write(encodeFrame(Frame.OUTPUT, "redraw"));
        chunk = rest;
      }
      for (const frame of frames.push(chunk)) {
        if (frame.type === Frame.INPUT) attached.input += decoder.decode(frame.payload);
        if (frame.type === Frame.DETACH) {
          attached.detached = true;
          await conn.write(encodeFrame(Frame.END, JSON.stringify({ reason: "detached" })));
          conn.close();
          attached.closed = true;
          return;
        }
      }
    }
    if (attached) attached.closed = true;
    try {
      conn.close();
    } catch {
      // Closed.
    }
  }
}

async function withFake(body: (fake: FakeSkiffd) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skiff-link-" });
  const fake = new FakeSkiffd(`${dir}/skiffd.sock`);
  fake.listen();
  try {
    await body(fake);
  } finally {
    fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("AttachLink: after a reload, keys typed while away go in after those sent before", async () => {
  await withFake(async (fake) => {
    const changes: Reattach[] = [];
    const link = await AttachLink.open("web", {
      socket: fake.socket,
      start: false,
      size: () => ({ cols: 90, rows: 30 }),
      output: () => {},
      reattached: (_info, change) => changes.push(change),
    });
    const first = fake.attached[0];
    assertEquals(first.params.cols, 90);
    link.input(encoder.encode("a"));
    await waitFor("a", () => first.input === "a");
    // skiffd reloads: the link must answer DETACH, and hold what is typed from then on.
    let release = () => {};
    fake.gate = new Promise((resolve) => release = resolve);
    await first.conn.write(
      encodeFrame(Frame.END, JSON.stringify({ reason: "reload", returning: true })),
    );
    await waitFor("the DETACH", () => first.detached);
    assertEquals(link.live, false);
    link.input(encoder.encode("b"));
    link.input(encoder.encode("c"));
    release();
    await waitFor("a second attach", () => fake.attached.length === 2 || undefined);
    const second = fake.attached[1];
    assertEquals(second.params.take_size, false, "a reattach leaves the pane's size alone");
    link.input(encoder.encode("d"));
    await waitFor("b, c, then d", () => second.input === "bcd" || undefined);
    assertEquals(first.input, "a");
    assertEquals(changes, [{ why: "reload", newProcess: false, refused: 0 }]);
    link.detach();
    assertEquals(await link.done, { reason: "detached" });
  });
});

Deno.test("AttachLink: after a restart, keys meant for the old process are refused and counted", async () => {
  await withFake(async (fake) => {
    const changes: Reattach[] = [];
    const link = await AttachLink.open("web", {
      socket: fake.socket,
      start: false,
      output: () => {},
      reattached: (_info, change) => changes.push(change),
    });
    const first = fake.attached[0];
    let release = () => {};
    fake.gate = new Promise((resolve) => release = resolve);
    await first.conn.write(
      encodeFrame(Frame.END, JSON.stringify({ reason: "daemon stopped", returning: true })),
    );
    await waitFor("the DETACH", () => first.detached);
    link.input(encoder.encode("rm -rf build\r"));
    fake.generation = 2;
    release();
    await waitFor("a second attach", () => fake.attached.length === 2 || undefined);
    await waitFor("the reattach", () => changes.length === 1 || undefined);
    assertEquals(changes, [{ why: "restart", newProcess: true, refused: 13 }]);
    assertEquals(link.info.generation, 2);
    link.input(encoder.encode("ls\r"));
    await waitFor("only what came after", () => fake.attached[1].input === "ls\r" || undefined);
    link.close();
    assertEquals(await link.done, { reason: "detached" });
  });
});

Deno.test("AttachLink: a detach while away leaves at once and counts the keys held", async () => {
  await withFake(async (fake) => {
    const link = await AttachLink.open("web", { socket: fake.socket, output: () => {} });
    const first = fake.attached[0];
    fake.gate = new Promise(() => {});
    await first.conn.write(
      encodeFrame(Frame.END, JSON.stringify({ reason: "reload", returning: true })),
    );
    await waitFor("the DETACH", () => first.detached);
    link.input(encoder.encode("abc"));
    link.detach();
    assertEquals(await link.done, { reason: "detached", unsent: 3 });
  });
});

Deno.test("AttachLink: an end with no return ends the link; a skiffd that never comes back is lost", async () => {
  await withFake(async (fake) => {
    const link = await AttachLink.open("web", { socket: fake.socket, output: () => {} });
    const conn = fake.attached[0].conn;
    await conn.write(encodeFrame(Frame.END, JSON.stringify({ reason: "exited" })));
    conn.close();
    assertEquals(await link.done, { reason: "exited" });
  });
  await withFake(async (fake) => {
    // Not to start one itself: it looks for the next skiffd until the time is up.
    const link = await AttachLink.open("web", {
      socket: fake.socket,
      start: false,
      output: () => {},
    });
    fake.stop();
    fake.attached[0].conn.close();
    const started = Date.now();
    assertEquals(await link.done, { reason: "lost" });
    assertEquals(Date.now() - started >= 9000, true, "it looked for skiffd for 10 s");
  });
  await withFake(async (fake) => {
    // Free to start one, it finds no saved workspace that holds the pane: gone, at once.
    const link = await AttachLink.open("web", { socket: fake.socket, output: () => {} });
    fake.stop();
    fake.attached[0].conn.close();
    const started = Date.now();
    assertEquals(await link.done, { reason: "gone" });
    assertEquals(Date.now() - started < 5000, true, "it did not wait for a skiffd to come");
  });
});
