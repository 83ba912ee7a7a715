/**
 * `workspace.list`: the whole workspace in one answer for the lists of the
 * dashboard and the app, the projects and the Skiff agent's settings as
 * skiffd read them from `projects.toml`, its last good ones while the file
 * is broken.
 */

import { DaemonClient } from "../../lib/client/client.ts";
import type { WorkspaceListing } from "../../lib/protocol/workspace.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";

/** A skiffd with one project, `api`, rooted in `src` under the test's root; a client of it. */
async function apiProject(skiff: SkiffEnv): Promise<{ src: string; client: DaemonClient }> {
  const src = `${skiff.root}/src`;
  await Deno.mkdir(src, { recursive: true });
  await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
  await Deno.writeTextFile(skiff.configFile, `[projects.api]\nroot = "${src}"\n`);
  await skiff.ok(["daemon", "start"]);
  return { src, client: await DaemonClient.connect(skiff.socket) };
}

Deno.test("workspace.list: panes, sessions, projects, the Skiff agent's settings and the watcher in one answer", async () => {
  await withSkiff(async (skiff) => {
    const src = `${skiff.root}/src`;
    await Deno.mkdir(src, { recursive: true });
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      `[skiff_agent]\nenabled = true\nname = "Mate"\nagent = "codex"\n\n[projects.api]\nroot = "${src}"\n`,
    );
    await skiff.ok(["new", "--project", "api", "--name", "build", "--", ...BASH]);
    await skiff.ok(["new", "--name", "loose", "--", ...BASH]);
    const client = await DaemonClient.connect(skiff.socket);
    try {
      const listing: WorkspaceListing = await client.call("workspace.list");
      const { panes: full } = await client.call("pane.list");
      assertEquals(listing.panes.map((p) => p.name), ["build", "loose"]);
      // Each pane as pane.list has it, but for the process in front, which costs a /proc look.
      for (const [i, pane] of listing.panes.entries()) {
        assert(!("foreground" in pane), JSON.stringify(pane));
        const { foreground: _, ...rest } = full[i];
        assertEquals({ ...pane, state_since: "", used: null }, {
          ...rest,
          state_since: "",
          used: null,
        });
      }
      const build = listing.panes[0];
      assertEquals([build.project, build.state, build.status], ["api", "shell", "running"]);
      // Every session with its panes, as session.list says.
      assertEquals(listing.sessions, (await client.call("session.list")).sessions);
      assertEquals(
        listing.sessions.map((s) => s.panes),
        listing.panes.map((p) => [p.id]),
      );
      assertEquals(listing.projects, [{ name: "api", root: src }]);
      assertEquals(listing.skipper, { enabled: true, name: "Mate", agent: "codex" });
      assertEquals(listing.config_error, null);
      assertEquals(listing.watcher, await client.call("watch.status"));
    } finally {
      client.close();
    }
  });
});

Deno.test("workspace.list: a broken projects.toml keeps the last good projects and says why until mended", async () => {
  await withSkiff(async (skiff) => {
    const { src, client } = await apiProject(skiff);
    try {
      const good = await client.call("workspace.list");
      assertEquals(good.projects.map((p) => p.name), ["api"]);

      await Deno.writeTextFile(
        skiff.configFile,
        `[projects.api]\nroot = "${src}"\n[projects.web\n`,
      );
      const broken = await client.call("workspace.list");
      assertEquals(broken.projects.map((p) => p.name), ["api"], "the last good projects stay");
      assert(broken.config_error !== null, "the error is told");
      assertMatch(broken.config_error, /projects\.toml/);
      // The same line `skiff ls` prints for the file.
      const ls = await skiff.run(["project", "ls"]);
      assertEquals(ls.code, 2, ls.stderr);
      assert(ls.stderr.includes(broken.config_error.split("\n")[0]), ls.stderr);

      await Deno.writeTextFile(
        skiff.configFile,
        `[projects.api]\nroot = "${src}"\n\n[projects.web]\nroot = "${src}"\n`,
      );
      const mended = await client.call("workspace.list");
      assertEquals(mended.config_error, null);
      assertEquals(mended.projects.map((p) => p.name), ["api", "web"]);
    } finally {
      client.close();
    }
  });
});

Deno.test("workspace.list with first: a first screen's panes, the whole workspace counted", async () => {
  await withSkiff(async (skiff) => {
    const { client } = await apiProject(skiff);
    try {
      // Loose panes first, then one of api (the list shows api's first), then a second pane of
      // the first loose session (the list shows it beside that session's first).
      for (const name of ["l1", "l2", "l3"]) {
        await client.call("pane.new", { name, session: name, command: BASH });
      }
      await client.call("pane.new", { name: "a1", project: "api", command: BASH });
      await client.call("pane.new", { name: "l1b", session: "l1", command: BASH });
      const cut = await client.call("workspace.list", { first: 3 });
      assertEquals(cut.panes.map((p) => p.name), ["l1", "a1", "l1b"]);
      assertEquals(cut.sessions.map((s) => s.name).sort(), ["a1", "l1"]);
      assertEquals(cut.cut?.counts, { panes: 5, working: 0, waiting: 0, unread: 0 });
      assertEquals(
        cut.cut?.projects.map((p) => [p.project, p.counts.panes]),
        [["api", 1], [null, 4]],
      );
      // The panes as the whole listing has them.
      const whole = await client.call("workspace.list");
      assertEquals(whole.cut, undefined);
      assertEquals(whole.panes.length, 5);
      for (const pane of cut.panes) {
        const same = whole.panes.find((p) => p.id === pane.id)!;
        assertEquals({ ...pane, state_since: "" }, { ...same, state_since: "" });
      }
      // As many rows as panes or more: nothing to cut.
      const all = await client.call("workspace.list", { first: 5 });
      assertEquals([all.cut, all.panes.length, all.sessions.length], [undefined, 5, 4]);
      // A bad count is refused, with the field named.
      for (const first of [0, -1, 1.5, "3"]) {
        const error = await client.call("workspace.list", { first } as never).then(
          () => undefined,
          (e: Error) => e,
        );
        assertMatch(String(error?.message), /'first' must be a whole number/);
      }
    } finally {
      client.close();
    }
  });
});
