/**
 * `skiff land HOST:PANE`: the worktree's repository is on the host, so the
 * host's Skiff lands it there (over the link, as `skiff diff HOST:PANE`
 * diffs there), and the ledger here marks the tasks it sent to that pane
 * `landed`. A conflict there is one line here with the host's exit code.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { SSH_TEST, withHost } from "../helpers/hosts.ts";
import { git } from "../helpers/git.ts";
import { commitFiles, refusedJson } from "../helpers/land.ts";
import type { LandResult } from "../../lib/protocol/land.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

Deno.test({
  name: "land HOST:PANE lands on the host; the tasks sent from here are marked landed here",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      local.env.SKIFF_LEDGER = join(local.root, "agent", "ledger.db");
      const repo = join(remote.skiff.root, "api");
      await Deno.mkdir(repo);
      git(repo, "init", "-q", "-b", "main");
      git(repo, "config", "user.name", "Remote Test");
      git(repo, "config", "user.email", "remote@skiff.invalid");
      await commitFiles(repo, { "a.txt": "one\ntwo\n" }, "first");
      await Deno.mkdir(remote.skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
      await Deno.writeTextFile(
        remote.skiff.configFile,
        [...fakeAgentToml(), `[projects.api]`, `root = "${repo}"`].join("\n") + "\n",
      );
      const made = await local.json<{ pane: PaneInfo }>([
        "new",
        "--host",
        "gpu1",
        "--project",
        "api",
        "--worktree",
        "login",
        "--agent",
        "fake",
        "--wait-ready",
      ]);
      const tree = made.pane.worktree!.path;
      const sent = await local.json<{ row: TaskJson; exit: number }>([
        "ledger",
        "add",
        "--pane",
        "gpu1:login",
        "--task",
        "Fix the login on gpu1",
        "--send",
        "--enter",
      ]);
      assertEquals([sent.exit, sent.row.host, sent.row.worktree], [
        0,
        "gpu1",
        made.pane.worktree!.id,
      ]);
      await local.ok(["wait", "gpu1:login", "--until", "idle", "--timeout", "30"]);
      await commitFiles(tree, { "login.txt": "fixed\n" }, "Fix the login");
      await commitFiles(repo, { "b.txt": "b\n" }, "Main moves on");
      const landed = await local.json<LandResult>(["land", "gpu1:login"]);
      assertEquals([landed.outcome, landed.base.where], ["landed", "checkout"]);
      assertEquals(git(repo, "rev-parse", "main"), landed.base.after);
      assertEquals(git(repo, "log", "-1", "--format=%s", "main"), "Fix the login");
      assertEquals(landed.tasks.map((t) => t.uid), [sent.row.uid]);
      const row = (await local.json<{ row: TaskJson }>(["ledger", "show", sent.row.uid])).row;
      assertEquals([row.state, row.landed?.range], ["landed", landed.range]);

      // A conflict on the host: its exit code and reason, its words after the host's name.
      await commitFiles(tree, { "a.txt": "one\nTWO here\n" }, "Line two, here");
      await commitFiles(repo, { "a.txt": "one\nTWO there\n" }, "Line two, there");
      const refused = await refusedJson(local, ["land", "gpu1:login"]);
      assertEquals([refused.code, refused.error.reason, refused.error.host], [
        19,
        "merge_conflict",
        "gpu1",
      ]);
      assertEquals(refused.error.conflicts, ["a.txt"]);
      assertMatch(refused.error.message, /^gpu1: skiff\/login does not apply on main/);
    }, { config: fakeAgentToml() });
  },
});
