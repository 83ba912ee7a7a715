/**
 * Hosts: `[hosts.NAME]` in projects.toml, `skiff host add|ls|rm|check`, and
 * the link the local skiffd holds, against a real sshd on a loopback port
 * and a second skiffd with its own HOME, config, state and socket, reached
 * only over SSH through the host's `ssh`, `skiff` and `socket` keys. Bad
 * host config is one line each and touches nothing else.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { addToConfig, SSH_TEST, withHost } from "../helpers/hosts.ts";
import { pidAlive, withSkiff } from "../helpers/skiff.ts";
import { PROTOCOL_VERSION, VERSION } from "../../lib/version.ts";

/** The one line of a failed command's stderr (its error), checked to be alone. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assertEquals(lines.length, 1, `one line on stderr, got: ${stderr}`);
  return lines[0];
}

Deno.test("host add, ls and rm edit projects.toml and keep its comments", async () => {
  await withSkiff(async (skiff) => {
    await addToConfig(skiff, "# my hosts\n[daemon]\nscrollback = 100 # keep\n");
    const added = JSON.parse(
      await skiff.ok([
        "host",
        "add",
        "gpu1",
        "me@gpu1.lab",
        "--skiff",
        "~/.local/bin/skiff",
        "--json",
        "--",
        "-i",
        "~/.ssh/gpu",
      ]),
    );
    assertEquals(added.host, {
      name: "gpu1",
      ssh: "me@gpu1.lab",
      skiff: "~/.local/bin/skiff",
      socket: null,
      ssh_options: ["-i", "~/.ssh/gpu"],
    });
    const text = await Deno.readTextFile(skiff.configFile);
    assertMatch(text, /# my hosts\n\[daemon\]\nscrollback = 100 # keep\n/);
    assertMatch(text, /\[hosts\.gpu1\]\nssh = "me@gpu1\.lab"/);

    const taken = await skiff.run(["host", "add", "gpu1", "other"]);
    assertEquals(taken.code, 5);
    assertMatch(oneLine(taken.stderr), /A host named 'gpu1' exists already/);
    const spaced = await skiff.run(["host", "add", "gpu2", "me@gpu2 -p 22"]);
    assertEquals(spaced.code, 2);
    assertMatch(oneLine(spaced.stderr), /'me@gpu2 -p 22' is not an SSH destination/);

    // No skiffd runs: ls starts none and says the link is idle.
    const ls = await skiff.json<{ hosts: { name: string; link: string }[] }>(["host", "ls"]);
    assertEquals(ls.hosts.map((h) => [h.name, h.link]), [["gpu1", "idle"]]);
    assertEquals(await skiff.daemonPid(), undefined, "host ls started no skiffd");

    await skiff.ok(["host", "rm", "gpu1"]);
    assertEquals(
      await Deno.readTextFile(skiff.configFile),
      "# my hosts\n[daemon]\nscrollback = 100 # keep\n",
    );
    const gone = await skiff.run(["host", "rm", "gpu1"]);
    assertEquals(gone.code, 3);
    assertMatch(oneLine(gone.stderr), /No host 'gpu1'/);
  });
});

Deno.test({
  name: "host check: reachable, the remote version, the round trip over the link, its agents",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      assertEquals(await remote.skiff.daemonPid(), undefined, "the remote skiffd is not running");
      const check = await local.json<{
        reachable: boolean;
        state: string;
        remote: {
          version: string;
          protocol: number;
          socket: string;
          started: boolean;
          agents: { id: string; installed: string | null }[];
        };
        rtt_ms: number;
        rtt_samples: number[];
        panes: number;
      }>(["host", "check", "gpu1"]);
      assertEquals([check.reachable, check.state], [true, "up"]);
      assertEquals([check.remote.version, check.remote.protocol], [VERSION, PROTOCOL_VERSION]);
      assertEquals(check.remote.socket, remote.socket, "the host's socket key was used");
      assertEquals(check.remote.started, true, "the link started the remote skiffd");
      assertEquals(check.rtt_samples.length, 10);
      assert(check.rtt_ms > 0 && check.rtt_samples.every((ms) => ms > 0), "round trips timed");
      const fake = check.remote.agents.find((a) => a.id === "fake");
      assert(fake?.installed, `the remote's own agents are listed: ${JSON.stringify(check)}`);
      assertEquals(check.panes, 0);
      const pid = await remote.skiff.daemonPid();
      assert(pid && pidAlive(pid), "the remote skiffd runs, started on demand");

      // The text form, and the link as host ls shows it.
      const text = await local.ok(["host", "check", "gpu1"]);
      assertMatch(text, /^gpu1 \(ssh gpu1\): reachable/);
      assertMatch(text, /round trip over the link: [\d.]+ ms \(median of 10\)/);
      assertMatch(text, /agents installed: .*fake/);
      const ls = await local.json<{ hosts: { name: string; link: string; version: string }[] }>([
        "host",
        "ls",
      ]);
      assertEquals(ls.hosts.map((h) => [h.name, h.link, h.version]), [["gpu1", "up", VERSION]]);
      const log = await Deno.readTextFile(join(local.root, "run", "skiffd.log"));
      assertMatch(log, /host gpu1: linking over ssh to gpu1/);
      assertMatch(log, /host gpu1: up in \d+ ms: Skiff [^,]+, skiffd pid \d+ \(started it\)/);
      // The link's files are private.
      const dir = join(local.root, "run", "skiffd.hosts");
      assertEquals((await Deno.stat(dir)).mode! & 0o777, 0o700);
      assertEquals((await Deno.stat(join(dir, "gpu1.sock"))).mode! & 0o077, 0);
    }, { config: fakeAgentToml() });
  },
});

Deno.test({
  name: "bad host config: an unknown host, a bad destination, a missing remote skiff, a broken " +
    "table: one line each, and nothing else is affected",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await addToConfig(
        local,
        [
          "[hosts.nowhere]",
          'ssh = "nosuchhost.invalid"',
          'ssh_options = ["-o", "ConnectTimeout=5"]',
          "",
          "[hosts.noskiff]",
          'ssh = "gpu1"',
          'skiff = "/nonexistent/bin/skiff"',
          `ssh_options = ["-F", "${remote.sshConfig}"]`,
          "",
          "[hosts.broken]",
          "ssh = 5",
          "",
          "[hosts.option]",
          `ssh = "-oProxyCommand=touch ${join(local.root, "pwned")}"`,
          "",
        ].join("\n"),
      );
      const unknown = await local.run(["host", "check", "gpu9"]);
      assertEquals(unknown.code, 3);
      assertMatch(oneLine(unknown.stderr), /No host 'gpu9'. See 'skiff host ls'/);

      const nowhere = await local.run(["host", "check", "nowhere"]);
      assertEquals(nowhere.code, 17, nowhere.stderr);
      assertMatch(
        oneLine(nowhere.stderr),
        /Host nowhere is unreachable: ssh: Could not resolve hostname nosuchhost\.invalid/,
      );

      const noskiff = await local.run(["host", "check", "noskiff"]);
      assertEquals(noskiff.code, 3, noskiff.stderr);
      assertMatch(
        oneLine(noskiff.stderr),
        /Host noskiff has no '\/nonexistent\/bin\/skiff' .*: install Skiff there, or set \[hosts\.noskiff\] skiff/,
      );

      const broken = await local.run(["host", "check", "broken"]);
      assertEquals(broken.code, 2);
      assertMatch(oneLine(broken.stderr), /'hosts\.broken\.ssh' must be an SSH destination/);
      // A destination ssh would take for an option is refused before ssh runs.
      const option = await local.run(["host", "check", "option"]);
      assertEquals(option.code, 2);
      assertMatch(oneLine(option.stderr), /'-oProxyCommand=.*' is not an SSH destination/);
      assertEquals(await Deno.stat(join(local.root, "pwned")).catch(() => null), null);

      // Local work and the good host go on.
      const pane = (await local.ok(["new", "--", "sh"])).trim();
      assertEquals((await local.json<{ panes: unknown[] }>(["ls"])).panes.length, 1);
      assertEquals((await local.run(["capture", pane])).code, 0);
      const good = await local.json<{ reachable: boolean }>(["host", "check", "gpu1"]);
      assertEquals(good.reachable, true);
      const ls = await local.json<{ hosts: { name: string; link: string; why: string }[] }>([
        "host",
        "ls",
      ]);
      const links = Object.fromEntries(ls.hosts.map((h) => [h.name, h.link]));
      assertEquals(links, {
        gpu1: "up",
        nowhere: "unreachable",
        noskiff: "refused",
        broken: "refused",
        option: "refused",
      });
    });
  },
});

Deno.test({
  name: "a host too old to be one is refused with its version named; another protocol too",
  ...SSH_TEST,
  fn: async () => {
    const old = await makeCheckout({
      version: "0.0.7",
      edits: [{
        path: "cmd/mod.ts",
        find: /\{\s*name: "host",[^}]*\},/,
        replace: "",
      }],
    });
    const newer = await makeCheckout({ version: "9.0.0", protocol: PROTOCOL_VERSION + 1 });
    const skewed = await makeCheckout({ version: "0.0.9" });
    try {
      await withHost(async (local) => {
        const r = await local.run(["host", "check", "gpu1"]);
        assertEquals(r.code, 18, r.stderr);
        assertMatch(
          oneLine(r.stderr),
          /Host gpu1 runs Skiff 0\.0\.7, too old to be a host .*upgrade Skiff on gpu1/,
        );
      }, { main: old.main });
      await withHost(async (local) => {
        const r = await local.run(["host", "check", "gpu1", "--json"]);
        assertEquals(r.code, 18, r.stderr);
        const error = JSON.parse(r.stderr).error;
        assertEquals(error.code, "protocol");
        assertMatch(
          error.message,
          new RegExp(
            `Host gpu1's skiffd \\(Skiff 9\\.0\\.0\\) speaks protocol ${
              PROTOCOL_VERSION + 1
            }, newer than this skiff`,
          ),
        );
        assertEquals(JSON.parse(r.stdout).reachable, false);
      }, { main: newer.main });
      // Another version of the same protocol works, and says so in one line.
      await withHost(async (local) => {
        const check = await local.ok(["host", "check", "gpu1"]);
        assertMatch(
          check,
          /gpu1's skiffd runs Skiff 0\.0\.9 and this skiff .*; both speak protocol/,
        );
        await local.ok(["new", "--host", "gpu1", "--name", "w", "--", "sh"]);
        const used = await local.run(["capture", "gpu1:w"]);
        assertEquals(used.code, 0, used.stderr);
        assertEquals(
          used.stderr.trim().split("\n").filter((l) => l.includes("0.0.9")).length,
          1,
          `one line of skew: ${used.stderr}`,
        );
        // Never a hint to upgrade the local skiffd for a host's version.
        assert(!used.stderr.includes("skiff daemon upgrade' to move it"), used.stderr);
        assertEquals((await local.run(["capture", "gpu1:w", "--json"])).stderr, "");
      }, { main: skewed.main });
    } finally {
      await old.remove();
      await newer.remove();
      await skewed.remove();
    }
  },
});
