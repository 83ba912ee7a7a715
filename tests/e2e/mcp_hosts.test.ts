/**
 * `skiff mcp` and panes on another host, over a real sshd to a second
 * skiffd: `HOST:PANE` in the tools, `all_hosts` in `list_panes`, and
 * `--host` naming the host of bare pane refs.
 *
 * @module
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { SSH_TEST, withHost } from "../helpers/hosts.ts";
import { BASH, waitFor } from "../helpers/skiff.ts";
import {
  call,
  type CallResult,
  connectMcp,
  ringBell,
  seenIsTold,
  toolErrorOf,
} from "../helpers/mcp.ts";

function ok(result: CallResult): Record<string, unknown> {
  assert(!result.isError, `the call failed: ${result.content[0]?.text}`);
  return result.structuredContent!;
}

Deno.test({
  name: "mcp: HOST:PANE in the tools, all_hosts in list_panes, and --host for bare refs",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--name", "here", "--", ...BASH]);
      await local.ok(["new", "--host", remote.name, "--name", "there", "--", ...BASH]);
      await local.waitForScreen(`${remote.name}:there`, /[$#] ?$/m);
      const session = await connectMcp(local, ["--allow", "send"]);
      try {
        const listed = ok(await call(session, "list_panes", { all_hosts: true }));
        const panes = listed.panes as { host: string | null; name: string }[];
        assertEquals(panes.map((p) => [p.host, p.name]), [[null, "here"], [remote.name, "there"]]);
        assertEquals(
          (listed.hosts as { host: string; state: string }[]).map((h) => [h.host, h.state]),
          [[remote.name, "up"]],
        );
        const captured = ok(await call(session, "capture_pane", { pane: `${remote.name}:there` }));
        assertEquals(captured.name, "there");
        ok(
          await call(session, "send_to_pane", {
            pane: `${remote.name}:there`,
            text: "echo over-the-link",
            any: true,
          }),
        );
        await local.waitForScreen(`${remote.name}:there`, "echo over-the-link");
        const missing = toolErrorOf(
          await call(session, "capture_pane", { pane: `${remote.name}:nope` }),
        );
        assertEquals(missing.code, "not_found");
        const unknown = toolErrorOf(await call(session, "capture_pane", { pane: "nohost:p1" }));
        assertEquals(unknown.code, "not_found");
      } finally {
        await session.close();
      }
      // Limited to a project, a host's count is of that project's panes there: none here.
      const scoped = await connectMcp(local, ["--project", "api"]);
      try {
        const listed = ok(await call(scoped, "list_panes", { all_hosts: true }));
        assertEquals(listed.panes, []);
        assertEquals(
          (listed.hosts as { host: string; panes: number }[]).map((h) => [h.host, h.panes]),
          [[remote.name, 0]],
        );
      } finally {
        await scoped.close();
      }
      const onHost = await connectMcp(local, ["--host", remote.name]);
      try {
        const listed = ok(await call(onHost, "list_panes"));
        assertEquals((listed.panes as { name: string }[]).map((p) => p.name), ["there"]);
        assertEquals(ok(await call(onHost, "capture_pane", { pane: "there" })).name, "there");
        // A ref with a host still names that host's pane: here, this machine has none by that name.
        const uris = (await onHost.client.listResources()).resources.map((r) => r.uri);
        assertEquals(uris, [`skiff://pane/${remote.name}%3Ap1/screen`, "skiff://ledger"]);
        const screen = await onHost.client.readResource({
          uri: `skiff://pane/${remote.name}%3Ap1/screen`,
        });
        assert((screen.contents[0] as { text: string }).text.includes("over-the-link"));
      } finally {
        await onHost.close();
      }
    });
  },
});

Deno.test({
  name:
    "mcp resources: a pane on another host is told when its state changes with no output, and its events come on the server's one connection to that host",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      const there = `${remote.name}:there`;
      await local.ok(["new", "--host", remote.name, "--name", "there", "--", ...BASH]);
      await local.waitForScreen(there, /[$#] ?$/m);
      const clients = async () =>
        (await local.json<{ clients: number }>(["daemon", "status"])).clients;
      const alone = await clients();
      const remoteClients = async () =>
        (await remote.skiff.json<{ clients: number }>(["daemon", "status"])).clients;
      const remoteAlone = await remoteClients();
      const updates: string[] = [];
      const session = await connectMcp(local, [], { onUpdated: (uri) => updates.push(uri) });
      try {
        const uri = `skiff://pane/${encodeURIComponent(there)}/screen`;
        await session.client.subscribeResource({ uri });
        await session.client.subscribeResource({ uri: "skiff://ledger" });
        await waitFor("a first update (the screen's redraw)", () => updates.includes(uri));
        // A seen on the host prints nothing there: only the host's events can tell it.
        await ringBell(local, there);
        await seenIsTold(local, there, uri, updates);
        // Here, one connection: the kept one, which also holds the link to the host.
        await waitFor(
          "the server's one connection here",
          async () => (await clients()) === alone + 1,
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assertEquals(await clients(), alone + 1);
        // There, two: the kept one (calls and events), and the one the screen is followed on
        // (the commands' own connections to it, through the link, come and go).
        await waitFor(
          "the server's two connections there",
          async () => (await remoteClients()) === remoteAlone + 2,
        );
      } finally {
        await session.close();
      }
    });
  },
});
