/**
 * Version skew between `skiff` and skiffd: an older skiffd earns a one-line
 * hint on stderr (never in `--json` results), `daemon status` shows both
 * versions, and another protocol version is refused in one line, exit 18;
 * a request an older skiffd does not know is refused the same way, and the
 * dashboard lists such a skiffd the old way.
 */

import { DaemonClient } from "../../lib/client/client.ts";
import { SkiffError } from "../../lib/errors.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { openDash, rowWith } from "../helpers/dash.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";
import { PROTOCOL_VERSION, VERSION } from "../../lib/version.ts";

function assertStringIncludes(text: string, part: string, message?: string): void {
  assert(
    text.includes(part),
    message ?? `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`,
  );
}

const HINT = /skiffd runs Skiff 0\.0\.1, older than this skiff .*'skiff daemon upgrade'/;

Deno.test("an older skiffd: every command hints once on stderr, never in --json results", async () => {
  const old = await makeCheckout({ version: "0.0.1" });
  try {
    await withSkiff(async (skiff) => {
      await skiff.ok(["daemon", "start"], { main: old.main });
      const text = await skiff.run(["ls"]);
      assertEquals(text.code, 0, text.stderr);
      const lines = text.stderr.trim().split("\n");
      assertEquals(lines.length, 1, text.stderr);
      assertMatch(lines[0], HINT);

      const json = await skiff.run(["ls", "--json"]);
      assertEquals(json.code, 0, json.stderr);
      assertEquals(json.stderr, "");
      assertEquals(JSON.parse(json.stdout).panes, []);

      // An error keeps its own line first; the hint follows.
      const missing = await skiff.run(["capture", "nope"]);
      assertEquals(missing.code, 3);
      const [error, hint] = missing.stderr.trim().split("\n");
      assertStringIncludes(error, "No pane 'nope'");
      assertMatch(hint, HINT);

      // The older skiff itself sees nothing to hint about.
      const same = await skiff.run(["ls"], { main: old.main });
      assertEquals(same.stderr, "");

      const status = await skiff.run(["daemon", "status"]);
      assertEquals(status.code, 0);
      assertStringIncludes(status.stdout, "skiffd 0.0.1 running");
      assertStringIncludes(
        status.stdout,
        `this skiff is ${VERSION}, newer: 'skiff daemon upgrade'`,
      );
      assertEquals(status.stderr, "", "status shows the versions itself");
      const facts = await skiff.json<
        { version: string; client: { version: string; protocol: number } }
      >([
        "daemon",
        "status",
      ]);
      assertEquals(facts.version, "0.0.1");
      assertEquals(facts.client, { version: VERSION, protocol: PROTOCOL_VERSION });
    });
  } finally {
    await old.remove();
  }
});

Deno.test("daemon status of a skiffd of the same version says so", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const status = await skiff.ok(["daemon", "status"]);
    assertStringIncludes(status, `skiffd ${VERSION} running`);
    assertStringIncludes(status, `this skiff is ${VERSION} too`);
  });
});

Deno.test("another protocol: one line that says which side is older and what to run, exit 18", async () => {
  const newer = await makeCheckout({ version: "9.0.0", protocol: PROTOCOL_VERSION + 1 });
  try {
    await withSkiff(async (skiff) => {
      // A newer skiffd than this skiff.
      await skiff.ok(["daemon", "start"], { main: newer.main });
      const old = await skiff.run(["ls"]);
      assertEquals(old.code, 18, old.stderr);
      assertEquals(old.stderr.trim().split("\n").length, 1, old.stderr);
      assertStringIncludes(
        old.stderr,
        `skiffd (Skiff 9.0.0) speaks protocol ${
          PROTOCOL_VERSION + 1
        }, newer than this skiff (${VERSION})`,
      );
      assertStringIncludes(old.stderr, "use the newer skiff");
      const json = await skiff.run(["ls", "--json"]);
      assertEquals(json.code, 18);
      const error = JSON.parse(json.stderr).error;
      assertEquals(error.code, "protocol");
      assertEquals(error.daemon_protocol, PROTOCOL_VERSION + 1);
      assertEquals(error.daemon_version, "9.0.0");
      assertEquals((await skiff.run(["daemon", "status"])).code, 18);
      await skiff.ok(["daemon", "stop"], { main: newer.main });

      // An older skiffd than the (newer) skiff.
      await skiff.ok(["daemon", "start"]);
      const fresh = await skiff.run(["ls"], { main: newer.main });
      assertEquals(fresh.code, 18, fresh.stderr);
      assertStringIncludes(
        fresh.stderr,
        `skiffd (Skiff ${VERSION}) speaks protocol ${PROTOCOL_VERSION}, older than this skiff (9.0.0)`,
      );
      assertStringIncludes(fresh.stderr, "run 'skiff daemon upgrade'");
      assert(!fresh.stderr.includes("restart"), fresh.stderr);
    });
  } finally {
    await newer.remove();
  }
});

Deno.test("a skiffd older than workspace.list: exit 18 naming the request, and the dashboard lists it piece by piece", async () => {
  // The skiffd of a Skiff from before `workspace.list`: it answers as every skiffd does to a
  // method it does not know.
  const old = await makeCheckout({
    version: "0.0.1",
    edits: [{
      path: "lib/daemon/server/workspace_methods.ts",
      find: `"workspace.list": (params, ctx) => {`,
      replace: `"workspace.none": (_params: unknown, ctx: any) => {`,
    }],
  });
  try {
    await withSkiff(async (skiff) => {
      const src = `${skiff.root}/src`;
      await Deno.mkdir(src, { recursive: true });
      await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
      await Deno.writeTextFile(skiff.configFile, `[projects.api]\nroot = "${src}"\n`);
      await skiff.ok(["daemon", "start"], { main: old.main });
      await skiff.ok(["new", "--project", "api", "--name", "build", "--", ...BASH], {
        main: old.main,
      });

      const client = await DaemonClient.connect(skiff.socket);
      try {
        const refused = await client.call("workspace.list").then(
          () => new Error("an older skiffd answered workspace.list"),
          (error) => error,
        );
        assert(refused instanceof SkiffError, String(refused));
        assertEquals([refused.code, refused.details.method], [18, "workspace.list"]);
        assertEquals(
          refused.message,
          `skiffd does not know 'workspace.list': it runs an older Skiff than this skiff ` +
            `(${VERSION}); run 'skiff daemon upgrade' to move it to ${VERSION} (every pane keeps running)`,
        );
      } finally {
        client.close();
      }

      // The dashboard still shows the older skiffd's panes and the projects.
      const term = await openDash(skiff, { ready: / build /, cols: 100, rows: 20 });
      try {
        assertMatch(rowWith(term, /^ api /)!, /api +1 pane/);
        assertMatch(rowWith(term, /^[ ›] +build /)!, /build +- +shell/);
      } finally {
        term.kill();
      }
    });
  } finally {
    await old.remove();
  }
});
