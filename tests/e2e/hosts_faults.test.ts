/**
 * Faults of hosts: a host whose SSH hangs (a listener that accepts and never
 * answers) never holds up local work or the other hosts; the SSH link
 * killed in the middle of an attach ends it with one line and exit 17 while
 * the remote pane keeps running, and the link is made again for the next
 * command; the remote skiffd restarting brings its panes back under their
 * ids and the local side follows it. A host that is down says when it was
 * last reached and is tried next, and one that is back is tried at once.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import {
  addToConfig,
  hangingListener,
  killLink,
  linkPid,
  SSH_TEST,
  waitForLink,
  withHost,
} from "../helpers/hosts.ts";
import { row } from "../helpers/ledger.ts";
import { BASH, MAIN, pidAlive, waitFor } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** A host as `ls --all-hosts --json` lists it. */
type HostListed = {
  host: string;
  state: string;
  why: string;
  last_up: string | null;
  next_try: string | null;
};

type Listed = {
  panes: (PaneInfo & { host: string | null })[];
  hosts: { host: string; state: string; why: string }[];
};

Deno.test({
  name: "a host whose SSH hangs never holds up local work, ls --all-hosts or the other hosts",
  ...SSH_TEST,
  fn: async () => {
    const hang = hangingListener();
    try {
      await withHost(async (local) => {
        await addToConfig(
          local,
          [
            "[hosts.stuck]",
            'ssh = "127.0.0.1"',
            `ssh_options = ["-p", "${hang.port}", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]`,
            "",
          ].join("\n"),
        );
        await local.ok(["new", "--name", "here", "--", ...BASH]);
        await local.ok(["new", "--host", "gpu1", "--name", "there", "--", ...BASH]);
        // ssh waits for the hanging host's greeting up to its ConnectTimeout (10 s); ls does not.
        const started = Date.now();
        const listed = await local.json<Listed>(["ls", "--all-hosts"]);
        const took = Date.now() - started;
        assert(took < 8000, `ls --all-hosts waited ${took} ms for a hanging host`);
        assertEquals(listed.panes.map((p) => [p.host, p.name]), [[null, "here"], [
          "gpu1",
          "there",
        ]]);
        const stuck = listed.hosts.find((h) => h.host === "stuck")!;
        assertEquals(stuck.state, "unreachable");
        assertMatch(stuck.why, /no answer yet|timed out/);
        const text = await local.run(["ls", "--all-hosts"]);
        assertEquals(text.code, 0);
        assertMatch(text.stdout, /^stuck: unreachable: /m);

        // Local commands and the other host go on while the hanging host's ssh waits.
        const quick = Date.now();
        await local.ok(["keys", "here", "echo fine-$((1+1))", "Enter"]);
        await local.waitForScreen("here", /^fine-2$/m);
        await local.ok(["keys", "gpu1:there", "echo far-$((2+2))", "Enter"]);
        await local.waitForScreen("gpu1:there", /^far-4$/m);
        assert(Date.now() - quick < 8000, "nothing waited on the hanging host");

        // A command that names the hanging host says so in one line once ssh gives up.
        const named = await local.run(["capture", "stuck:p1"]);
        assertEquals(named.code, 17, named.stderr);
        assertMatch(named.stderr, /^skiff: Host stuck is unreachable: .*timed out.*\n$/);
        assertEquals((await local.json<Listed>(["ls"])).panes.length, 1);
      });
    } finally {
      hang.close();
    }
  },
});

Deno.test({
  name: "the SSH link killed mid-attach: one line, exit 17, and the remote pane keeps running",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const term = await TestTerminal.start(
        [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "gpu1:web"],
        { env: local.env, cwd: local.env.HOME, cols: 90, rows: 24 },
      );
      try {
        term.type("echo attached-$((3*3))\r");
        await term.waitForText(/^attached-9$/m, { timeout: 30_000 });
        // The host's sshd stops and the link dies: it cannot be made again.
        await remote.sshd.stop();
        await killLink(local, "gpu1");
        assertEquals(await term.exited, 17);
        // One line (the terminal wraps it; the bytes have no break).
        assertMatch(
          term.raw,
          /\[lost the link to gpu1: ssh: [^\n]*; gpu1:web \(p1\) keeps running there\]/,
        );
      } finally {
        term.kill();
      }
      const pane = (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      assertEquals([pane.name, pane.status], ["web", "running"]);
      assert(pane.pid !== null && pidAlive(pane.pid), "the remote pane's shell runs");

      // When the host answers again, the next command makes the link anew.
      await remote.sshd.start();
      await local.ok(["keys", "gpu1:web", "echo again-$((4*4))", "Enter"]);
      await local.waitForScreen("gpu1:web", /^again-16$/m);
    });
  },
});

Deno.test({
  name: "the remote skiffd restarts: its panes come back under their ids and the local side " +
    "follows (the link, ls, the ledger); a killed link is made again by itself",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      local.env.SKIFF_LEDGER = join(local.root, "agent", "ledger.db");
      await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const task = await row(local, [
        "add",
        "--pane",
        "gpu1:rev",
        "--task",
        "review",
        "--send",
        "--enter",
      ]);
      await local.ok(["wait", "gpu1:rev", "--until", "idle", "--timeout", "30"]);
      const before = (await local.json<Listed>(["ls", "--all-hosts"])).panes
        .find((p) => p.host === "gpu1")!;

      await remote.skiff.ok(["daemon", "restart"]);
      const log = join(local.root, "run", "skiffd.log");
      await waitFor("the link to follow the restart", async () => {
        const text = await Deno.readTextFile(log);
        return /host gpu1: its skiffd went away/.test(text) &&
          /host gpu1: (up again|its skiffd restarted)/.test(text);
      }, { timeout: 30_000, interval: 200 });
      await waitForLink(local, "gpu1", "up");
      const after = await waitFor("the pane back under its id", async () => {
        const listed = await local.json<Listed>(["ls", "--all-hosts"]);
        return listed.panes.find((p) => p.host === "gpu1" && p.id === before.id);
      });
      assertEquals(after.name, "rev");
      assert(after.generation !== before.generation, "a new process under the old id");
      const stored = await row(local, ["show", task.uid]);
      assertEquals(stored.state, "interrupted", "the restart shows on the task, not gone");
      // A shell pane came back as a new shell under its id, and takes keys over the link.
      await local.ok(["keys", "gpu1:web", "echo back-$((5*5))", "Enter"]);
      await local.waitForScreen("gpu1:web", /^back-25$/m);

      // The SSH connection killed with nothing attached: the link is made again by itself.
      const old = await killLink(local, "gpu1");
      await waitFor("a new ssh for the link", async () => {
        const pid = await linkPid(local, "gpu1");
        return pid !== undefined && pid !== old;
      });
      await waitForLink(local, "gpu1", "up");
      assertMatch(
        await Deno.readTextFile(log),
        /host gpu1: the ssh connection ended .*linking again/,
      );
      await local.waitForScreen("gpu1:web", /^back-25$/m);
    }, { config: fakeAgentToml() });
  },
});

Deno.test({
  name: "the local skiffd restarts mid-attach to a host's pane: the link is made again and the " +
    "attach goes on",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local) => {
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const term = await TestTerminal.start(
        [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "gpu1:web"],
        { env: local.env, cwd: local.env.HOME, cols: 90, rows: 24 },
      );
      try {
        term.type("echo before-$((2*3))\r");
        await term.waitForText(/^before-6$/m, { timeout: 30_000 });
        const old = await linkPid(local, "gpu1");
        await local.ok(["daemon", "restart"]);
        await waitFor("a new link", async () => {
          const pid = await linkPid(local, "gpu1");
          return pid !== undefined && pid !== old;
        }, { timeout: 60_000 });
        await waitFor("the attach back on the pane", async () => {
          term.type("echo after-$((3*3))\r");
          await new Promise((resolve) => setTimeout(resolve, 500));
          return /^after-9$/m.test(term.text());
        }, { timeout: 60_000, interval: 1000 });
        term.type("\x1c");
        assertEquals(await term.exited, 0);
        assertMatch(term.raw, /\[detached from gpu1:web \(p1\);/);
      } finally {
        term.kill();
      }
    });
  },
});

Deno.test({
  name: "case 10: ls --all-hosts says when a down host was last reached and is tried next, and " +
    "tries a host that waits for its next try at once, so one that is back lists its panes",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const listed = await local.json<Listed>(["ls", "--all-hosts"]);
      assertEquals(listed.panes.filter((p) => p.host === "gpu1").map((p) => p.name), ["web"]);

      // The host goes away, and its link with it: it cannot be made again.
      await remote.sshd.stop();
      await killLink(local, "gpu1");
      await waitFor("the link to fail", async () => {
        const { hosts } = await local.json<Listed>(["ls", "--all-hosts"]);
        return hosts.find((h) => h.host === "gpu1")?.state === "unreachable";
      }, { timeout: 30_000 });
      const text = await local.ok(["ls", "--all-hosts"]);
      assertMatch(
        text,
        /^gpu1: unreachable: ssh: .*\(last reached \d\d:\d\d:\d\d, next try at \d\d:\d\d:\d\d\)$/m,
      );
      const down = (await local.json<{ hosts: HostListed[] }>(["ls", "--all-hosts"])).hosts[0];
      assert(down.last_up !== null && down.next_try !== null, JSON.stringify(down));

      // Tried again and again while it is down, ever less often: the next try is far off.
      const log = join(local.root, "run", "skiffd.log");
      await waitFor("a next try 16 s or more away", async () => {
        const lines = (await Deno.readTextFile(log)).match(/host gpu1: unreachable: .*/g) ?? [];
        const wait = Number(/next try in (\d+) s/.exec(lines.at(-1) ?? "")?.[1] ?? 0);
        return wait >= 16;
      }, { timeout: 60_000, interval: 200 });

      // Back: the one ls --all-hosts run right after tries it now, long before that try, and
      // lists its pane again within its 0.8 s (a host that took longer would be left out with
      // a line of why).
      await remote.sshd.start();
      const back = await local.json<Listed & { hosts: HostListed[] }>(["ls", "--all-hosts"]);
      assertEquals(back.hosts.map((h) => [h.host, h.state]), [["gpu1", "up"]], back.hosts[0]?.why);
      assertEquals(back.panes.filter((p) => p.host === "gpu1").map((p) => p.name), ["web"]);
    });
  },
});

Deno.test({
  name: "a link made again goes to the host's skiffd as before, and asks the host's skiff " +
    "when that skiffd is gone: it is started and its panes come back",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const log = join(local.root, "run", "skiffd.log");
      const ups = async () =>
        (await Deno.readTextFile(log)).match(/host gpu1: up in \d+ ms: .*/g) ?? [];

      // Its SSH connection goes; the host's skiffd stays: made again through the same socket.
      await killLink(local, "gpu1");
      await waitFor("the link, made again", async () => (await ups()).length === 2, {
        timeout: 30_000,
      });
      assertMatch((await ups())[1], /\(as before\)$/);
      assertMatch(await local.ok(["capture", "gpu1:web"]), /[$#] ?$/m);

      // The host's skiffd stops while the link is down: the socket of before answers nothing,
      // so the host's skiff is asked, and starts it.
      await remote.sshd.stop();
      await killLink(local, "gpu1");
      await waitFor("the link to fail", async () => {
        const { hosts } = await local.json<Listed>(["ls", "--all-hosts"]);
        return hosts.find((h) => h.host === "gpu1")?.state === "unreachable";
      }, { timeout: 30_000 });
      await remote.skiff.ok(["daemon", "stop"]);
      await remote.sshd.start();
      // A command that names the host tries it at once, and waits for it.
      assertMatch(await local.ok(["capture", "gpu1:web"]), /[$#] ?$/m);
      const listed = await local.json<Listed>(["ls", "--all-hosts"]);
      assertEquals(listed.panes.filter((p) => p.host === "gpu1").map((p) => p.name), ["web"]);
      const last = (await ups()).at(-1)!;
      assertMatch(last, /\(started it\)/);
      assert(!last.endsWith("(as before)"), last);
    });
  },
});
