/** The app's door: the token in a cookie or a header, and a WebSocket's Origin. */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { Gate, sameOrigin } from "../../../lib/app/auth.ts";
import { isPort, newToken, PORT_RANGE, randomPort } from "../../../lib/app/app_file.ts";
import { opener } from "../../../lib/app/browser.ts";

const TOKEN = "a".repeat(64);

function request(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:20001/ws", { headers });
}

Deno.test("gate: the token comes in its cookie or as a bearer; anything else is refused", async () => {
  const gate = await Gate.create(TOKEN);
  assertMatch(gate.cookie, /^skiff-[0-9a-f]{12}$/);
  assert(
    !gate.cookie.includes(TOKEN.slice(0, 12)),
    "the cookie's name does not give the token away",
  );
  assertEquals(gate.check(request({ cookie: `${gate.cookie}=${TOKEN}` })), "ok");
  assertEquals(gate.check(request({ cookie: `other=1; ${gate.cookie}=${TOKEN}` })), "ok");
  assertEquals(gate.check(request({ authorization: `Bearer ${TOKEN}` })), "ok");
  assertEquals(gate.check(request({ cookie: `${gate.cookie}=${"b".repeat(64)}` })), "no-token");
  assertEquals(gate.check(request({ cookie: `skiff-000000000000=${TOKEN}` })), "no-token");
  assertEquals(gate.check(request({})), "no-token");
  assertMatch(gate.setCookie(), /; Path=\/; HttpOnly; SameSite=Strict$/);
  // Another token names another cookie: two apps at one host name keep apart.
  assertEquals((await Gate.create("c".repeat(64))).cookie === gate.cookie, false);
});

Deno.test("gate: a WebSocket must come from the page's own address", async () => {
  const gate = await Gate.create(TOKEN);
  const ws = (origin?: string) =>
    request({
      cookie: `${gate.cookie}=${TOKEN}`,
      upgrade: "websocket",
      host: "localhost:8123",
      ...(origin ? { origin } : {}),
    });
  assertEquals(gate.check(ws("http://localhost:8123")), "ok");
  assertEquals(gate.check(ws("http://evil.test")), "foreign-origin");
  assertEquals(gate.check(ws("http://localhost:9999")), "foreign-origin");
  assertEquals(gate.check(ws()), "foreign-origin");
  assertEquals(sameOrigin(request({ host: "127.0.0.1:1", origin: "http://127.0.0.1:1" })), true);
});

Deno.test("app file: tokens are 64 hex characters; the app picks ports below the ephemeral range", () => {
  assertMatch(newToken(), /^[0-9a-f]{64}$/);
  assert(newToken() !== newToken());
  for (let i = 0; i < 100; i++) {
    const port = randomPort();
    assert(port >= PORT_RANGE.low && port <= PORT_RANGE.high, String(port));
  }
  assertEquals([isPort(1), isPort(65535), isPort(0), isPort(70000), isPort(1.5)], [
    true,
    true,
    false,
    false,
    false,
  ]);
});

Deno.test("browser opener: xdg-open with a display, open on macOS unless over SSH, none otherwise", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(opener(env({ DISPLAY: ":0" }), "linux"), { command: "xdg-open" });
  assertEquals(opener(env({ WAYLAND_DISPLAY: "wayland-0" }), "linux"), { command: "xdg-open" });
  assertEquals(opener(env({}), "linux"), { why: "no display" });
  assertEquals(opener(env({}), "darwin"), { command: "open" });
  assertEquals(opener(env({ SSH_CONNECTION: "1 2 3 4" }), "darwin"), { why: "logged in over SSH" });
  assertEquals(opener(env({}), "windows"), { why: "no opener on windows" });
});
