/**
 * `skiff app` and the app's door: the address stays the same across
 * restarts, the token file is 0600, every request needs the token (401 and
 * no data without it), a WebSocket also needs the app's own Origin, --port
 * moves the app, and a browser opens only where there is one.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";
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
      (await (await fetch(`${status.origin}app.js`)).text()).includes("WebSocket"),
      false,
    );
    assertEquals((await fetch(`${status.origin}?token=${"0".repeat(64)}`)).status, 401);

    const login = await fetch(status.url, { redirect: "manual" });
    await login.body?.cancel();
    assertEquals([login.status, login.headers.get("location")], [303, "/"]);
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    assertMatch(login.headers.get("set-cookie")!, /HttpOnly; SameSite=Strict/);
    const page = await fetch(status.origin, { headers: { cookie } });
    assertEquals(page.status, 200);
    assertMatch(await page.text(), /<title>Skiff<\/title>/);
    const script = await fetch(`${status.origin}vendor/xterm.mjs`, {
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
