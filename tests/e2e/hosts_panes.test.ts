/**
 * Addressing panes on another host: `skiff new --host`, `skiff ls
 * --all-hosts`, `HOST:PANE` in every command that takes a pane, a guarded
 * send with its refusals, and `skiff attach HOST:PANE` in a real terminal
 * (typing, resize, detach, the redraw after vim), all over a real sshd to a
 * second skiffd that is reached only through the host's keys.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { SSH_TEST, withHost } from "../helpers/hosts.ts";
import { BASH, MAIN, waitFor } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

type ListedPane = PaneInfo & { host: string | null };

Deno.test({
  name: "new --host, ls --all-hosts and HOST:PANE in every command that takes a pane",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      const here = (await local.ok(["new", "--name", "here", "--", ...BASH])).trim();
      assertEquals(here, "p1");
      const made = await local.json<{ id: string; host: string; pane: PaneInfo }>([
        "new",
        "--host",
        "gpu1",
        "--name",
        "there",
        "--",
        ...BASH,
      ]);
      assertEquals([made.host, made.id, made.pane.name], ["gpu1", "p1", "there"]);
      assertEquals(
        (await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--wait-ready"])).trim(),
        "gpu1:p2",
        "text mode prints HOST:ID",
      );
      // The pane lives on the remote skiffd only.
      const remotePanes = (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      assertEquals(remotePanes.map((p) => p.name), ["there", "fake"]);
      // The agent's hooks call the remote's own skiff.
      assert(
        !remotePanes[1].command.join(" ").includes(local.root),
        `hooks point at the host's skiff: ${remotePanes[1].command.join(" ")}`,
      );

      // ls: local only, host null; --all-hosts: every host, a HOST column.
      const only = await local.json<{ panes: ListedPane[] }>(["ls"]);
      assertEquals(only.panes.map((p) => [p.host, p.name]), [[null, "here"]]);
      const all = await local.json<
        { panes: ListedPane[]; hosts: { host: string; state: string }[] }
      >(
        ["ls", "--all-hosts"],
      );
      assertEquals(all.panes.map((p) => [p.host, p.id, p.name]), [
        [null, "p1", "here"],
        ["gpu1", "p1", "there"],
        ["gpu1", "p2", "fake"],
      ]);
      assertEquals(all.hosts.map((h) => [h.host, h.state]), [["gpu1", "up"]]);
      const text = await local.ok(["ls", "--all-hosts"]);
      assertMatch(text, /^HOST +ID +NAME/);
      assertMatch(text, /^- +p1 +here /m);
      assertMatch(text, /^gpu1 +p2 +fake /m);

      // keys, capture, wait, explain, seen, rename, mark, kill over the link.
      await local.ok(["keys", "gpu1:there", "echo remote-$((6*7))", "Enter"]);
      await local.waitForScreen("gpu1:there", /^remote-42$/m);
      assertEquals((await local.run(["capture", "here"])).stdout.includes("remote-42"), false);
      const waited = await local.json<{ state: string }>(["wait", "gpu1:fake", "--timeout", "30"]);
      assertEquals(waited.state, "idle");
      const explained = await local.json<{ agent: string; id: string }>(["explain", "gpu1:fake"]);
      assertEquals([explained.id, explained.agent], ["p2", "fake"]);

      // A guarded send, refused (a shell is in front: exit 11; nothing typed), then sent.
      const refused = await local.run(["send", "gpu1:there", "do it", "--enter"]);
      assertEquals(refused.code, 11, refused.stderr);
      assertMatch(refused.stderr, /^skiff: gpu1: Pane 'there': no known agent is in front/);
      assertEquals((await local.run(["capture", "gpu1:there"])).stdout.includes("do it"), false);
      // The remote pane's events follow through the link.
      const events = local.run([
        "events",
        "--pane",
        "gpu1:fake",
        "--type",
        "turn-end",
        "--count",
        "1",
        "--json",
      ]);
      const sent = await local.json<{ turn_started: boolean }>([
        "send",
        "gpu1:fake",
        // Long enough for the events command above to be following when the turn ends.
        "SLOW 6000 review it",
        "--enter",
      ]);
      assertEquals(sent.turn_started, true);
      const working = await local.run(["send", "gpu1:fake", "another", "--enter"]);
      assertEquals(working.code, 12, "refused while the remote agent works");
      const followed = await events;
      assertEquals(followed.code, 0, followed.stderr);
      const turnEnd = JSON.parse(followed.stdout);
      assertEquals([turnEnd.event, turnEnd.host, turnEnd.pane, turnEnd.name], [
        "turn-end",
        "gpu1",
        "p2",
        "fake",
      ]);
      await local.ok(["wait", "gpu1:fake", "--until", "idle", "--timeout", "30"]);
      const seen = await local.json<{ was_unread: boolean; reasons: string[] }>([
        "seen",
        "gpu1:fake",
      ]);
      assertEquals([seen.was_unread, seen.reasons], [true, ["turn-end"]]);

      await local.ok(["rename", "gpu1:there", "yonder"]);
      await local.ok(["mark", "gpu1:yonder", "role=review"]);
      assertEquals((await local.ok(["mark", "gpu1:yonder"])).trim(), "role=review");
      const missing = await local.run(["capture", "gpu1:there"]);
      assertEquals(missing.code, 3);
      assertEquals(missing.stderr, "skiff: gpu1: No pane 'there'. See 'skiff ls --all-hosts'\n");
      await local.ok(["kill", "gpu1:yonder"]);
      const after = (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      assertEquals(after.map((p) => p.name), ["fake"]);
      assertEquals((await local.json<{ panes: ListedPane[] }>(["ls"])).panes.length, 1);

      // Bad refs and options are one line each.
      const cwd = await local.run(["new", "--host", "gpu1", "--cwd", "src", "--", "sh"]);
      assertEquals(cwd.code, 2);
      assertMatch(cwd.stderr, /--cwd with --host needs an absolute path on gpu1/);
      const badRef = await local.run(["capture", "gpu1:"]);
      assertEquals(badRef.code, 2);
      const unknown = await local.run(["capture", "gpu9:p1"]);
      assertEquals(unknown.code, 3);
      assertEquals(unknown.stderr, "skiff: No host 'gpu9'. See 'skiff host ls'\n");
    }, { config: fakeAgentToml() });
  },
});

Deno.test({
  name: "attach HOST:PANE: typing, resize, detach, and the screen after vim quits",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      await local.ok(["keys", "gpu1:web", "echo before-attach", "Enter"]);
      await local.waitForScreen("gpu1:web", /^before-attach$/m);
      const term = await TestTerminal.start(
        [
          "sh",
          "-c",
          `clear; echo OUTER; exec '${Deno.execPath()}' run -A -q '${MAIN}' attach gpu1:web`,
        ],
        { env: local.env, cwd: local.env.HOME, cols: 100, rows: 30 },
      );
      const remotePane = async () =>
        (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      try {
        await term.waitForText(/^before-attach$/m, { timeout: 30_000 });
        await waitFor("the remote pane to take the terminal's size", async () => {
          const p = await remotePane();
          return p.attached === 1 && p.cols === 100 && p.rows === 30;
        });
        term.type("echo typed-$((2+3))\r");
        await term.waitForText(/^typed-5$/m);
        await remote.skiff.waitForScreen("p1", /^typed-5$/m);

        term.resize(70, 20);
        await waitFor("the remote pane to follow the resize", async () => {
          const p = await remotePane();
          return p.cols === 70 && p.rows === 20;
        });
        term.type("stty size\r");
        await term.waitForText(/^20 70$/m);

        term.type("clear; echo INSIDE\r");
        await term.waitForText(/^INSIDE$/m);
        term.type("vim -u NONE\r");
        await term.waitForText(/^~/m);
        term.type(":q\r");
        await term.waitForText(/^INSIDE$/m);
        await waitFor("the terminal to show the remote pane's screen after vim", async () => {
          const pane = (await remote.skiff.run(["capture", "p1"])).stdout.trimEnd();
          return term.text().trimEnd() === pane;
        });
        assert(!term.text().includes("OUTER"), term.text());

        term.type("\x1c");
        assertEquals(await term.exited, 0);
        const lines = term.text().split("\n");
        assertEquals(lines[0], "OUTER");
        assertMatch(
          lines[1],
          /^\[detached from gpu1:web \(p1\); 'skiff attach gpu1:web' attaches again\]$/,
        );
      } finally {
        term.kill();
      }
      const p = await remotePane();
      assertEquals([p.status, p.attached], ["running", 0], "the remote pane keeps running");
    });
  },
});

Deno.test({
  name: "diff HOST:PANE: the worktree on the host, diffed there",
  ...SSH_TEST,
  fn: async () => {
    const repoConfig = (root: string) => [`[projects.api]`, `root = "${root}"`];
    let repo = "";
    await withHost(async (local, remote) => {
      repo = join(remote.skiff.root, "api");
      await Deno.mkdir(repo);
      const git = (...args: string[]) =>
        new Deno.Command("git", {
          args: ["-c", "user.email=t@t", "-c", "user.name=t", ...args],
          cwd: repo,
          stdout: "null",
          stderr: "null",
        }).output();
      await git("init", "-q", "-b", "main");
      await Deno.writeTextFile(join(repo, "a.txt"), "one\n");
      await git("add", ".");
      await git("commit", "-q", "-m", "first");
      await Deno.mkdir(remote.skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
      await Deno.writeTextFile(remote.skiff.configFile, repoConfig(repo).join("\n") + "\n");
      const made = await local.json<{ pane: PaneInfo }>([
        "new",
        "--host",
        "gpu1",
        "--project",
        "api",
        "--worktree",
        "login",
        "--",
        ...BASH,
      ]);
      const tree = made.pane.worktree!.path;
      assert(tree.startsWith(remote.skiff.root), tree);
      await Deno.writeTextFile(join(tree, "a.txt"), "one\ntwo\n");
      const diff = await local.json<{ host: string; added: number; patch: string }>([
        "diff",
        "gpu1:login",
      ]);
      assertEquals([diff.host, diff.added], ["gpu1", 1]);
      assertMatch(diff.patch, /^\+two$/m);
      const stat = await local.ok(["diff", "gpu1:login", "--stat"]);
      assertMatch(stat, /a\.txt +\| \+1 -0/);
    });
  },
});

Deno.test({
  name:
    "issue 28: send and seen to HOST:PANE confirm the pane as the person named it, host and all",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local) => {
      assertEquals(
        (await local.ok([
          "new",
          "--host",
          "gpu1",
          "--name",
          "ragent",
          "--agent",
          "fake",
          "--wait-ready",
        ]))
          .trim(),
        "gpu1:p1",
      );
      const sent = await local.ok(["send", "gpu1:ragent", "first task", "--enter"]);
      assertEquals(sent, "Sent to gpu1:ragent (p1); a turn started\n");
      await local.ok(["wait", "gpu1:p1", "--until", "idle", "--timeout", "30"]);
      // By id too: the confirmation names the pane, on the host typed.
      const typed = await local.ok(["send", "gpu1:p1", "second task"]);
      assertEquals(typed, "Typed into gpu1:ragent (p1); Enter not pressed\n");
      const seen = await local.ok(["seen", "gpu1:p1"]);
      assertEquals(seen, "Marked gpu1:ragent (p1) seen: it was unread for turn-end\n");
      // A local pane is named as before.
      await local.ok(["new", "--name", "here", "--", ...BASH]);
      assertEquals(
        await local.ok(["seen", "here"]),
        "here (p1) was not unread; nothing to clear\n",
      );
    }, { config: fakeAgentToml() });
  },
});
