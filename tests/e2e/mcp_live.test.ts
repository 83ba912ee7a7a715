/**
 * `skiff mcp` over time, with the SDK's client: `--project` scoping, pane
 * screens and the ledger as resources with subscriptions told as the pane
 * prints (at most 4 a second a pane) and as its state changes, and a
 * skiffd reload and restart under a live server.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startFakeAgent, useFakeAgent } from "../helpers/fake_agent.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import {
  call,
  type CallResult,
  connectMcp,
  type McpSession,
  ringBell,
  seenIsTold,
  toolErrorOf,
} from "../helpers/mcp.ts";

function ok(result: CallResult): Record<string, unknown> {
  assert(!result.isError, `the call failed: ${result.content[0]?.text}`);
  return result.structuredContent!;
}

/**
 * Waits until an update is told for `screen.uri` after which a read of it
 * shows `options.line`. The follow's first frame (the screen as it already
 * was) is told too, so the first update may come before the output does.
 */
async function toldShowing(
  session: McpSession,
  screen: { uri: string; told: () => readonly unknown[] },
  options: { line: RegExp; timeout?: number },
): Promise<void> {
  let toldBefore = 0;
  await waitFor(`an update after which ${screen.uri} shows ${options.line}`, async () => {
    const told = screen.told().length;
    if (told === toldBefore) return false;
    toldBefore = told;
    const read = await session.client.readResource({ uri: screen.uri });
    return options.line.test((read.contents[0] as { text: string }).text);
  }, { timeout: options.timeout });
}

Deno.test("mcp --project: every tool sees only that project's panes and ledger rows", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    for (const name of ["api", "web"]) {
      await Deno.mkdir(join(skiff.root, name));
      await skiff.ok(["project", "add", name, join(skiff.root, name)]);
    }
    await startFakeAgent(skiff, "a1", { extra: ["--project", "api"] });
    await startFakeAgent(skiff, "w1", { extra: ["--project", "web"] });
    await skiff.ok(["new", "--name", "loose", "--", ...BASH]);
    const aTask = JSON.parse(
      await skiff.ok(["ledger", "add", "--pane", "api/a1", "--task", "api work", "--json"]),
    ).row.uid;
    const wTask = JSON.parse(
      await skiff.ok(["ledger", "add", "--pane", "web/w1", "--task", "web work", "--json"]),
    ).row.uid;
    const session = await connectMcp(skiff, ["--allow", "all", "--project", "api"]);
    try {
      const listed = ok(await call(session, "list_panes"));
      assertEquals((listed.panes as { name: string }[]).map((p) => p.name), ["a1"]);
      ok(await call(session, "capture_pane", { pane: "a1" }));
      for (
        const [tool, args] of [
          ["capture_pane", { pane: "web/w1" }],
          ["capture_pane", { pane: "loose" }],
          ["wait_for_pane", { pane: "w1" }],
          ["send_to_pane", { pane: "w1", text: "hi" }],
          ["mark_seen", { pane: "w1" }],
          ["kill_pane", { pane: "w1" }],
          ["pane_diff", { pane: "w1" }],
          ["ledger_show", { id: wTask }],
          ["ledger_update", { id: wTask, state: "done" }],
          ["ledger_add", { pane: "w1", task: "sneak" }],
        ] as const
      ) {
        const error = toolErrorOf(await call(session, tool, args));
        assertEquals(error.code, "not_found", `${tool} ${JSON.stringify(args)}`);
      }
      const rows = ok(await call(session, "ledger_list")).rows as { uid: string }[];
      assertEquals(rows.map((r) => r.uid), [aTask]);
      assertEquals(
        (ok(await call(session, "ledger_show", { id: aTask })).row as { uid: string }).uid,
        aTask,
      );
      // A plan belongs to no project; a pane elsewhere is refused.
      assertEquals(
        toolErrorOf(await call(session, "ledger_add", { task: "a plan" })).code,
        "usage",
      );
      const other = toolErrorOf(await call(session, "new_pane", { project: "web" }));
      assertEquals([other.code, other.message], [
        "usage",
        "This server starts panes only in project api",
      ]);
      const made = ok(await call(session, "new_pane", { name: "a2", command: [...BASH] }));
      assertEquals((made.pane as { project: string }).project, "api");
      // A folder outside api's root, or a session of another project, is not there for it.
      const api = join(skiff.root, "api");
      for (
        const [args, message] of [
          [
            { cwd: join(skiff.root, "web") },
            `No folder '${join(skiff.root, "web")}' in project api`,
          ],
          [{ cwd: skiff.root }, `No folder '${skiff.root}' in project api`],
          [{ cwd: `${api}-old` }, `No folder '${api}-old' in project api`],
          [{ session: "w1" }, "No session 'w1' in project api. See 'skiff ls'"],
          [{ session: "p2" }, "No session 'p2' in project api. See 'skiff ls'"],
          [{ session: "loose" }, "No session 'loose' in project api. See 'skiff ls'"],
        ] as const
      ) {
        const refused = toolErrorOf(
          await call(session, "new_pane", { ...args, name: "sneak", command: [...BASH] }),
        );
        assertEquals(refused.code, "not_found", JSON.stringify(args));
        assert(refused.message.startsWith(message), refused.message);
      }
      // Within the root, and in a session of its own project, it starts.
      await Deno.mkdir(join(api, "sub"));
      const below = ok(
        await call(session, "new_pane", { name: "a3", cwd: join(api, "sub"), command: [...BASH] }),
      );
      assertEquals((below.pane as { cwd: string }).cwd, join(api, "sub"));
      const joined = ok(
        await call(session, "new_pane", { name: "a4", session: "a1", command: [...BASH] }),
      );
      assertEquals((joined.pane as { project: string }).project, "api");
      await skiff.ok(["kill", "a3"]);
      await skiff.ok(["kill", "a4"]);
      // The resources are scoped too.
      const uris = (await session.client.listResources()).resources.map((r) => r.uri);
      assertEquals(uris, ["skiff://pane/p1/screen", "skiff://pane/p4/screen", "skiff://ledger"]);
      const ledger = await session.client.readResource({ uri: "skiff://ledger" });
      const text = (ledger.contents[0] as { text: string }).text;
      assertEquals((JSON.parse(text).rows as { uid: string }[]).map((r) => r.uid), [aTask]);
      await assertRejects(() => session.client.readResource({ uri: "skiff://pane/p2/screen" }));
      // Nothing outside the scope was touched.
      const all = await skiff.json<{ panes: { name: string }[] }>(["ls"]);
      assertEquals(all.panes.map((p) => p.name), ["a1", "w1", "loose", "a2"]);
    } finally {
      await session.close();
    }
  });
});

async function assertRejects(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch {
    return;
  }
  throw new Error("expected a rejection");
}

Deno.test("mcp resources: a subscribed screen is told when the pane prints, at most 4 a second, and when its state changes", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    await skiff.waitForScreen("sh", /[$#] ?$/m);
    await startFakeAgent(skiff, "worker");
    const updates: { uri: string }[] = [];
    const session = await connectMcp(skiff, ["--allow", "send"], {
      onUpdated: (uri) => updates.push({ uri }),
    });
    try {
      const templates = await session.client.listResourceTemplates();
      assertEquals(templates.resourceTemplates.map((t) => t.uriTemplate), [
        "skiff://pane/{pane}/screen",
      ]);
      const listed = (await session.client.listResources()).resources;
      assertEquals(listed.map((r) => r.uri), [
        "skiff://pane/p1/screen",
        "skiff://pane/p2/screen",
        "skiff://ledger",
      ]);
      const read = await session.client.readResource({ uri: "skiff://pane/sh/screen" });
      assertEquals(
        (read.contents[0] as { text: string }).text,
        (await skiff.json<{ text: string }>(["capture", "sh"])).text,
      );
      await assertRejects(() =>
        session.client.subscribeResource({ uri: "skiff://pane/nope/screen" })
      );
      await assertRejects(() => session.client.readResource({ uri: "skiff://other" }));

      const sh = "skiff://pane/sh/screen";
      await session.client.subscribeResource({ uri: sh });
      await skiff.ok(["keys", "sh", "echo marker-one", "Enter"]);
      await toldShowing(session, { uri: sh, told: () => updates.filter((u) => u.uri === sh) }, {
        line: /^marker-one$/m,
      });

      // A flood of output for two seconds: told at most 4 times a second.
      updates.length = 0;
      const start = performance.now();
      await skiff.ok([
        "keys",
        "sh",
        "for i in $(seq 1 40); do echo line $i; sleep 0.05; done; echo flood-done",
        "Enter",
      ]);
      await skiff.waitForScreen("sh", /^flood-done/m, { timeout: 20_000 });
      const span = (performance.now() - start) / 1000;
      const told = updates.filter((u) => u.uri === sh);
      assert(told.length >= 3, `told ${told.length} times over ${span.toFixed(1)} s`);
      // The server tells at most one every 250 ms (tests/unit/mcp holds the throttle's spacing);
      // here, over the whole flood, which arrivals bunched by a loaded machine cannot break.
      assert(told.length <= Math.ceil(span * 4) + 2, `told ${told.length} times in ${span} s`);

      // The agent's state: a send makes it work, then idle; each is told.
      const worker = "skiff://pane/p2/screen";
      await session.client.subscribeResource({ uri: worker });
      updates.length = 0;
      ok(await call(session, "send_to_pane", { pane: "worker", text: "Do it", enter: true }));
      await waitFor("an update for the worker", () => updates.some((u) => u.uri === worker));
      // Unsubscribed: no more updates for the shell.
      await session.client.unsubscribeResource({ uri: sh });
      await skiff.ok(["wait", "worker", "--until", "idle", "--timeout", "30"]);
      updates.length = 0;
      await skiff.ok(["keys", "sh", "echo after", "Enter"]);
      await skiff.waitForScreen("sh", /^after/m);
      // The worker is still followed: its screen changing is still told, the shell's is not.
      await skiff.ok(["keys", "worker", "x"]);
      await waitFor("an update for the worker", () => updates.some((u) => u.uri === worker));
      assertEquals(updates.filter((u) => u.uri === sh), []);
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp resources: the ledger is told when a row is added", async () => {
  await withSkiff(async (skiff) => {
    const updates: string[] = [];
    const session = await connectMcp(skiff, [], { onUpdated: (uri) => updates.push(uri) });
    try {
      await skiff.ok(["ledger", "add", "--task", "first plan"]);
      await session.client.subscribeResource({ uri: "skiff://ledger" });
      await skiff.ok(["ledger", "add", "--task", "second plan"]);
      await waitFor("the ledger's update", () => updates.includes("skiff://ledger"));
      const read = await session.client.readResource({ uri: "skiff://ledger" });
      const rows = JSON.parse((read.contents[0] as { text: string }).text).rows as {
        task: string;
      }[];
      assertEquals(rows.map((r) => r.task), ["first plan", "second plan"]);
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp: skiffd reloads and restarts under a live server; calls wait for it and go on", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    await skiff.waitForScreen("sh", /[$#] ?$/m);
    const updates: string[] = [];
    const session = await connectMcp(skiff, ["--allow", "all"], {
      onUpdated: (uri) => updates.push(uri),
    });
    try {
      const before = ok(await call(session, "list_panes"));
      assertEquals((before.panes as { name: string }[]).map((p) => p.name), ["sh"]);
      await session.client.subscribeResource({ uri: "skiff://pane/sh/screen" });

      await skiff.ok(["daemon", "reload"]);
      assertEquals(
        (ok(await call(session, "list_panes")).panes as { name: string }[]).map((p) => p.name),
        ["sh"],
      );
      const pid = await skiff.daemonPid();
      // A call made while skiffd restarts waits for the new one.
      const restart = skiff.ok(["daemon", "restart"]);
      await waitFor("the old skiffd to go", async () => (await skiff.daemonPid()) !== pid, {
        timeout: 30_000,
      });
      const during = call(session, "list_panes");
      await restart;
      const after = ok(await during);
      assertEquals((after.panes as { name: string }[]).map((p) => p.name), ["sh"]);
      ok(await call(session, "capture_pane", { pane: "sh" }));
      // The subscription follows the new skiffd: the pane printing is still told.
      updates.length = 0;
      await skiff.waitForScreen("sh", /[$#] ?$/m);
      await skiff.ok(["keys", "sh", "echo back", "Enter"]);
      await toldShowing(session, { uri: "skiff://pane/sh/screen", told: () => updates }, {
        line: /^back$/m,
        timeout: 15_000,
      });
      // A mutating tool works on the new connection.
      ok(await call(session, "new_pane", { name: "second", command: [...BASH] }));

      // skiffd stopped: a call starts it, as a command would.
      await skiff.ok(["daemon", "stop"]);
      const listed = ok(await call(session, "list_panes"));
      assert(Array.isArray(listed.panes));
    } finally {
      await session.close();
    }
    assertEquals(session.stderr().includes("Internal error"), false);
  });
});

Deno.test("mcp resources: a state change with no output (a seen) is told to a screen's subscriber", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    await skiff.waitForScreen("sh", /[$#] ?$/m);
    const updates: string[] = [];
    const session = await connectMcp(skiff, [], { onUpdated: (uri) => updates.push(uri) });
    try {
      const uri = "skiff://pane/sh/screen";
      await session.client.subscribeResource({ uri });
      await ringBell(skiff, "sh");
      await seenIsTold(skiff, "sh", uri, updates);
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp: one kept connection to skiffd carries the calls and every subscription's events, and each subscribed pane's screen has one of its own, through a reload", async () => {
  await withSkiff(async (skiff) => {
    for (const name of ["a", "b", "c"]) await skiff.ok(["new", "--name", name, "--", ...BASH]);
    for (const name of ["a", "b", "c"]) await skiff.waitForScreen(name, /[$#] ?$/m);
    const clients = async () =>
      (await skiff.json<{ clients: number }>(["daemon", "status"])).clients;
    // The status command's own connection.
    const alone = await clients();
    const updates: string[] = [];
    const session = await connectMcp(skiff, [], { onUpdated: (uri) => updates.push(uri) });
    const settled = async (want: number, why: string) => {
      await waitFor(why, async () => (await clients()) === alone + want, { timeout: 15_000 });
      // And stays so: nothing else opens a moment later.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assertEquals(await clients(), alone + want, why);
    };
    try {
      ok(await call(session, "list_panes"));
      await settled(1, "the server's one connection");
      // Many subscriptions: the ledger, and three panes, one of them under three URIs.
      await session.client.subscribeResource({ uri: "skiff://ledger" });
      for (const pane of ["a", "p1", "b", "c"]) {
        await session.client.subscribeResource({ uri: `skiff://pane/${pane}/screen` });
      }
      await session.client.subscribeResource({ uri: "skiff://pane/p1/screen" });
      await settled(1 + 3, "the kept connection, and one a pane's screen");
      // The events come on the kept connection: a state change with no output is told.
      await ringBell(skiff, "b");
      await seenIsTold(skiff, "b", "skiff://pane/b/screen", updates);
      // A pane's output is told under each URI it was subscribed as.
      updates.length = 0;
      await skiff.ok(["keys", "a", "echo printed", "Enter"]);
      await waitFor(
        "both URIs of a told",
        () =>
          updates.includes("skiff://pane/a/screen") && updates.includes("skiff://pane/p1/screen"),
      );

      // A reload: each connection is made again, one each, and the subscriptions go on.
      await skiff.ok(["daemon", "reload"]);
      ok(await call(session, "list_panes"));
      await settled(1 + 3, "the same connections after the reload");
      await ringBell(skiff, "c");
      await seenIsTold(skiff, "c", "skiff://pane/c/screen", updates);
      await skiff.ok(["ledger", "add", "--task", "a plan"]);
      await waitFor("the ledger's update", () => updates.includes("skiff://ledger"));
      // Unsubscribed from every URI of a pane, its connection goes.
      await session.client.unsubscribeResource({ uri: "skiff://pane/a/screen" });
      await session.client.unsubscribeResource({ uri: "skiff://pane/p1/screen" });
      await settled(1 + 2, "one connection fewer once pane a has no subscription");
    } finally {
      await session.close();
    }
  });
});
