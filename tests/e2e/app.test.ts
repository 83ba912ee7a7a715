/**
 * `skiff app` and the app's door: the address stays the same across
 * restarts, the token file is 0600, every request needs the token (401 and
 * no data without it), a WebSocket also needs the app's own Origin, --port
 * moves the app, and a browser opens only where there is one.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { waitFor, withSkiff } from "../helpers/skiff.ts";
import { recordingStub } from "../helpers/watch.ts";
import type { AppStatus } from "../../lib/protocol/app.ts";

/** Sends a WebSocket handshake by hand and returns the status code skiffd's app answers. */
async function handshake(port: number, headers: Record<string, string>): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [
      "GET /ws HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version: 13",
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      "",
      "",
    ];
    await conn.write(new TextEncoder().encode(lines.join("\r\n")));
    const buffer = new Uint8Array(4096);
    const n = await conn.read(buffer);
    const head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
    return Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
  } finally {
    conn.close();
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("skiff app: one address across restarts, a 0600 token file, and no data without the token", async () => {
  await withSkiff(async (skiff) => {
    const status = await skiff.json<AppStatus>(["app", "--no-open"]);
    assertMatch(status.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    assertEquals(status.file, join(skiff.root, "state", "skiffd.app.json"));
    assertEquals((await Deno.stat(status.file)).mode! & 0o777, 0o600);
    const token = new URL(status.url).searchParams.get("token")!;

    const bare = await fetch(status.origin);
    assertEquals(bare.status, 401);
    const body = await bare.text();
    assert(!body.includes("<html") && !body.includes("xterm"), body);
    assertEquals(
      (await (await fetch(`${status.origin}/app.js`)).text()).includes("WebSocket"),
      false,
    );
    assertEquals((await fetch(`${status.origin}/?token=${"0".repeat(64)}`)).status, 401);

    const login = await fetch(status.url, { redirect: "manual" });
    await login.body?.cancel();
    assertEquals([login.status, login.headers.get("location")], [303, "/"]);
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    assertMatch(login.headers.get("set-cookie")!, /HttpOnly; SameSite=Strict/);
    const page = await fetch(status.origin, { headers: { cookie } });
    assertEquals(page.status, 200);
    assertMatch(await page.text(), /<title>Skiff<\/title>/);
    const script = await fetch(`${status.origin}/vendor/xterm.mjs`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assertEquals(script.status, 200);
    assertMatch(await script.text(), /Terminal/);

    // The page's address outlives skiffd.
    await skiff.ok(["daemon", "restart"]);
    const again = await skiff.json<AppStatus>(["app", "--no-open"]);
    assertEquals(again.url, status.url);
    assertEquals((await fetch(status.origin, { headers: { cookie } })).status, 200);

    // The text form prints the address alone on stdout.
    const text = await skiff.run(["app", "--no-open"]);
    assertEquals([text.code, text.stdout], [0, `${status.url}\n`]);
  });
});

Deno.test("skiff app: a WebSocket needs the token and the app's own Origin", async () => {
  await withSkiff(async (skiff) => {
    const status = await skiff.json<AppStatus>(["app", "--no-open"]);
    const login = await fetch(status.url, { redirect: "manual" });
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const own = `http://127.0.0.1:${status.port}`;
    assertEquals(await handshake(status.port, { Cookie: cookie, Origin: own }), 101);
    // The origin skiff app prints is the one the check takes (issue 21 item 19).
    assertEquals(status.origin, own);
    assertEquals(await handshake(status.port, { Cookie: cookie, Origin: status.origin }), 101);
    assertEquals(await handshake(status.port, { Cookie: cookie, Origin: "http://evil.test" }), 403);
    assertEquals(
      await handshake(status.port, { Cookie: cookie, Origin: `http://localhost:${status.port}` }),
      403,
    );
    assertEquals(await handshake(status.port, { Cookie: cookie }), 403);
    assertEquals(await handshake(status.port, { Origin: own }), 401);
  });
});

Deno.test("skiff app --port moves the app and keeps it there; a taken or bad port changes nothing", async () => {
  await withSkiff(async (skiff) => {
    const first = await skiff.json<AppStatus>(["app", "--no-open"]);
    const port = freePort();
    const moved = await skiff.json<AppStatus>(["app", "--no-open", "--port", String(port)]);
    assertEquals(moved.port, port);
    assertEquals(JSON.parse(await Deno.readTextFile(first.file)).port, port);
    assertEquals((await fetch(moved.origin)).status, 401);
    await fetch(first.origin).then(
      () => assert(false, "the old port still answers"),
      () => {},
    );

    const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const taken = (holder.addr as Deno.NetAddr).port;
      const refused = await skiff.run(["app", "--no-open", "--port", String(taken)]);
      assertEquals(refused.code, 5);
      assertEquals(refused.stderr, `skiff: Port ${taken} is taken; the app stays on ${port}\n`);
    } finally {
      holder.close();
    }
    const bad = await skiff.run(["app", "--no-open", "--port", "70000"]);
    assertEquals([bad.code, bad.stderr], [
      2,
      "skiff: Bad port '70000': use a whole number from 1 to 65535\n",
    ]);
    await skiff.ok(["daemon", "restart"]);
    assertEquals((await skiff.json<AppStatus>(["app", "--no-open"])).port, port);
  });
});

Deno.test("skiff app opens the page with xdg-open where there is a display, and says how to reach it where not", async () => {
  await withSkiff(async (skiff) => {
    const stubs = join(skiff.root, "stubs");
    const log = join(skiff.root, "xdg-open.log");
    await recordingStub(stubs, "xdg-open", log);
    skiff.env.PATH = `${stubs}:${skiff.env.PATH}`;

    const headless = await skiff.run(["app"]);
    assertEquals(headless.code, 0);
    assertMatch(
      headless.stderr,
      /No browser here \(no display\)\. .*ssh -L (\d+):127\.0\.0\.1:\1 /,
    );
    assertEquals(await Deno.readTextFile(log).catch(() => ""), "");

    skiff.env.DISPLAY = ":99";
    const shown = await skiff.json<AppStatus & { opened: boolean }>(["app"]);
    assertEquals(shown.opened, true);
    assertEquals(await Deno.readTextFile(log), `${shown.url}\n`);

    // No opener installed: still no error.
    const empty = join(skiff.root, "empty-bin");
    await Deno.mkdir(empty);
    skiff.env.PATH = empty;
    const none = await skiff.json<{ opened: boolean; why: string }>(["app"]);
    assertEquals([none.opened, none.why], [false, "xdg-open is not installed"]);
  });
});

/** A page's control socket, opened by hand: what it heard, and requests. */
class PageSocket {
  readonly heard: Record<string, unknown>[] = [];
  readonly #ws: WebSocket;
  #id = 0;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (message) => this.heard.push(JSON.parse(String(message.data)));
  }

  static async open(status: AppStatus): Promise<PageSocket> {
    const login = await fetch(status.url, { redirect: "manual" });
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    // Deno's WebSocket takes headers; the DOM's types, which the check also loads, do not say so.
    const options = { headers: { cookie, origin: `http://127.0.0.1:${status.port}` } };
    const ws = new WebSocket(`ws://127.0.0.1:${status.port}/ws`, options as unknown as string[]);
    const page = new PageSocket(ws);
    await waitFor("the page's socket to be live", () => page.heard.some((m) => m.subscribed));
    return page;
  }

  /** How many times it heard that `what` changed. */
  changes(what: string): number {
    return this.heard.filter((m) => m.changed === what).length;
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id;
    this.#ws.send(JSON.stringify({ id, method, params }));
    const answer = await waitFor(
      `the answer to ${method}`,
      () => this.heard.find((m) => m.id === id),
    );
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    return answer.result;
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.#ws.onclose = resolve);
    this.#ws.close();
    await closed;
  }
}

Deno.test("the app tells every page that projects.toml changed, and the ledger only to pages that follow it, wherever SKIFF_LEDGER puts it", async () => {
  const elsewhere = await Deno.makeTempDir({ prefix: "skiff-ledger-" });
  const ledgerFile = join(elsewhere, "not", "made", "yet", "tasks.db");
  try {
    await withSkiff(async (skiff) => {
      const status = await skiff.json<AppStatus>(["app", "--no-open"]);
      const follower = await PageSocket.open(status);
      const other = await PageSocket.open(status);
      assertEquals(await follower.call("follow", { ledger: true }), { ledger: true });
      const empty = await follower.call("ledger") as { path: string; exists: boolean };
      assertEquals([empty.path, empty.exists], [ledgerFile, false]);

      await skiff.ok(["ledger", "add", "--task", "Release 2.0"]);
      await waitFor("the follower to hear of the new ledger", () => follower.changes("ledger") > 0);
      const made = await follower.call("ledger") as { exists: boolean; rows: { task: string }[] };
      assertEquals([made.exists, made.rows.map((r) => r.task)], [true, ["Release 2.0"]]);

      // Every page hears of the settings; the page that does not follow the ledger heard
      // nothing of it, though the settings' news came after the ledger's.
      await skiff.ok(["settings", "set", "name", "First Mate"]);
      for (const page of [follower, other]) {
        await waitFor("the settings' news", () => page.changes("settings") === 1);
      }
      assertEquals(other.changes("ledger"), 0);

      // A page that stops following hears no more of the ledger.
      assertEquals(await follower.call("follow", { ledger: false }), { ledger: false });
      const heard = follower.changes("ledger");
      await skiff.ok(["ledger", "add", "--task", "Fix the lexer"]);
      await skiff.ok(["settings", "set", "name", "Second Mate"]);
      await waitFor("the settings' news", () => follower.changes("settings") === 2);
      assertEquals(follower.changes("ledger"), heard);

      await follower.close();
      await other.close();
    }, { SKIFF_LEDGER: ledgerFile });
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
  }
});
