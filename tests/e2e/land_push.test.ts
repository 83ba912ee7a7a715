/**
 * `skiff land --push` and `--pr`, the team's way: the branch rebased,
 * checked and pushed under its own name with its upstream set (to a bare
 * repository on disk here), the local base untouched. GitHub cannot be
 * reached from these tests, so `--pr` is tried with no `gh` on the PATH
 * and with a fake `gh` that records its arguments and prints an address
 * (and one that fails): in both failures the push stays, one line, exit 22.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { git } from "../helpers/git.ts";
import {
  commitFiles,
  landingRepo,
  refusedJson,
  shellInWorktree,
  type Snapshot,
  snapshot,
} from "../helpers/land.ts";
import { type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { LandResult } from "../../lib/protocol/land.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

/** A repository with `origin` a bare repository on disk, and worktree `fix` one commit ahead. */
async function withRemote(skiff: SkiffEnv): Promise<{ repo: string; path: string; bare: string }> {
  const repo = await landingRepo(skiff);
  const bare = join(skiff.root, "origin.git");
  git(skiff.root, "init", "-q", "--bare", bare);
  git(repo, "remote", "add", "origin", bare);
  git(repo, "push", "-q", "origin", "main");
  const path = await shellInWorktree(skiff, "demo", "fix");
  await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
  await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
  return { repo, path, bare };
}

/** Both checkouts as they are, the main one and the worktree: every ref, the index, the files. */
async function both(repo: string, path: string): Promise<Snapshot[]> {
  return [await snapshot(repo), await snapshot(path)];
}

/** A PATH with none of the folders that hold a `gh`. */
function pathWithoutGh(path: string): string {
  return path.split(":").filter((dir) => {
    try {
      Deno.statSync(join(dir, "gh"));
      return false;
    } catch {
      return true;
    }
  }).join(":");
}

/** Puts a fake `gh` first on the PATH: it records its arguments and answers as `script` says. */
async function fakeGh(skiff: SkiffEnv, script: string): Promise<string> {
  const bin = join(skiff.root, "fake-bin");
  await Deno.mkdir(bin, { recursive: true });
  const record = join(skiff.root, "gh-args.json");
  await Deno.writeTextFile(
    join(bin, "gh"),
    `#!/bin/sh\nprintf '%s\\0' "$@" > ${record}\n${script}\n`,
  );
  await Deno.chmod(join(bin, "gh"), 0o755);
  skiff.env.PATH = `${bin}:${pathWithoutGh(skiff.env.PATH)}`;
  return record;
}

Deno.test("land --push: rebased, pushed to the remote under its own name with its upstream; main untouched", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path, bare } = await withRemote(skiff);
    const main = git(repo, "rev-parse", "main");
    const pushed = await skiff.json<LandResult>(["land", "fix", "--push"]);
    assertEquals([pushed.outcome, pushed.base.where, pushed.base.after], [
      "pushed",
      "remote",
      null,
    ]);
    const tip = git(path, "rev-parse", "HEAD");
    assertEquals(pushed.push, { remote: "origin", branch: "skiff/fix", commit: tip });
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), tip);
    assertEquals(git(path, "rev-parse", "HEAD~1"), main, "rebased onto the base first");
    assertEquals(git(repo, "rev-parse", "main"), main, "the local base is not landed on");
    assertEquals(git(repo, "config", "branch.skiff/fix.remote"), "origin");
    assertEquals(git(repo, "config", "branch.skiff/fix.merge"), "refs/heads/skiff/fix");
    // More work, and main moves again: the rebased branch goes up over its old push, by lease.
    await commitFiles(path, { "more.txt": "more\n" }, "More");
    await commitFiles(repo, { "news.txt": "news\n" }, "News");
    const again = await skiff.json<LandResult>(["land", "fix", "--push", "origin"]);
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), again.push!.commit);
    assertEquals(git(bare, "log", "--format=%s", "refs/heads/skiff/fix").split("\n").slice(0, 4), [
      "More",
      "The fix",
      "News",
      "Docs",
    ]);
    // A branch someone else pushed meanwhile is never overwritten.
    const theirs = git(bare, "commit-tree", git(bare, "rev-parse", "main^{tree}"), "-m", "theirs");
    git(bare, "update-ref", "refs/heads/skiff/fix", theirs);
    await commitFiles(path, { "last.txt": "last\n" }, "Last");
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix", "--push"]);
    assertEquals([refused.code, refused.error.reason, refused.error.remote], [
      21,
      "push_failed",
      "origin",
    ]);
    assertMatch(
      refused.error.message,
      /not what this repository last saw of it \(fetch it first\)/,
    );
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), theirs);
    // The rebase made for the push is put back: every ref, the index and the files as they were.
    assertEquals(await both(repo, path), before, "the repository is exactly as before");
    const noRemote = await refusedJson(skiff, ["land", "fix", "--push", "upstream"]);
    assertEquals(noRemote.code, 2);
    assertMatch(noRemote.error.message, /has no remote 'upstream'/);
    assertEquals(await both(repo, path), before, "the repository is exactly as before");
  });
});

Deno.test("land --push=REMOTE pushes there, as REMOTE after PANE does; a remote named twice is refused", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await withRemote(skiff);
    const upstream = join(skiff.root, "upstream.git");
    git(skiff.root, "init", "-q", "--bare", upstream);
    git(repo, "remote", "add", "upstream", upstream);
    const before = await both(repo, path);
    const twice = await refusedJson(skiff, ["land", "fix", "origin", "--push=upstream"]);
    assertEquals(twice.code, 2);
    assertMatch(twice.error.message, /named 2 times \(origin, upstream\): name it once/);
    const empty = await skiff.run(["land", "fix", "--push="]);
    assertEquals(empty.code, 2);
    assertEquals(
      empty.stderr.trim(),
      "skiff: Option '--push=' needs a REMOTE after '='. See 'skiff land --help'.",
    );
    assertEquals(await both(repo, path), before, "a refused line changes nothing");
    const pushed = await skiff.json<LandResult>(["land", "fix", "--push=upstream"]);
    const tip = git(path, "rev-parse", "HEAD");
    assertEquals(pushed.push, { remote: "upstream", branch: "skiff/fix", commit: tip });
    assertEquals(git(upstream, "rev-parse", "refs/heads/skiff/fix"), tip);
    assertEquals(git(repo, "config", "branch.skiff/fix.remote"), "upstream");
    const help = await skiff.ok(["land", "--help"]);
    assertMatch(help, /--push\[=REMOTE\] +Push the branch to REMOTE/);
  });
});

Deno.test("land --pr without gh: pushed, one line, exit 22, and the push stays", async () => {
  await withSkiff(async (skiff) => {
    const { bare, path } = await withRemote(skiff);
    skiff.env.PATH = pathWithoutGh(skiff.env.PATH);
    const refused = await refusedJson(skiff, ["land", "fix", "--pr"]);
    assertEquals([refused.code, refused.error.code], [22, "pr_failed"]);
    assertEquals([refused.error.reason, refused.error.gh], ["pr_failed", "missing"]);
    assertMatch(
      refused.error.message,
      /was pushed to origin \(it stays\), but .*gh is not on the PATH/,
    );
    const tip = git(path, "rev-parse", "HEAD");
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), tip);
    const text = await skiff.run(["land", "fix", "--pr"]);
    assertEquals(text.code, 22);
    assertEquals(
      text.stderr.trimEnd().split("\n").filter((l) => l.startsWith("skiff: ")).length,
      1,
    );
  });
});

Deno.test("land --pr --draft opens it with gh: title and body from the tasks and the diffstat (gh faked: GitHub is out of reach)", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const { bare } = await withRemote(skiff);
    // A task sent on the branch, through a worker in the worktree.
    await skiff.ok(["kill", "fix"]);
    await skiff.ok(["new", "--project", "demo", "--worktree", "fix", "--agent", "fake"]);
    await skiff.ok(["wait", "fix", "--until", "idle", "--timeout", "30"]);
    const sent = await skiff.json<{ row: TaskJson; exit: number }>([
      "ledger",
      "add",
      "--pane",
      "fix",
      "--task",
      "Fix the login redirect",
      "--send",
      "--enter",
    ]);
    assertEquals(sent.exit, 0);
    await skiff.ok(["wait", "fix", "--until", "idle", "--timeout", "30"]);
    const record = await fakeGh(
      skiff,
      'echo "Creating pull request"; echo https://github.invalid/o/r/pull/7',
    );
    const opened = await skiff.json<LandResult>(["land", "fix", "--pr", "--draft"]);
    assertEquals(opened.outcome, "pr");
    assertEquals(opened.pr, {
      url: "https://github.invalid/o/r/pull/7",
      title: "Fix the login redirect",
      draft: true,
    });
    const args = (await Deno.readTextFile(record)).split("\0").slice(0, -1);
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    assertEquals(args.slice(0, 2), ["pr", "create"]);
    assertEquals([value("--head"), value("--base"), value("--title")], [
      "skiff/fix",
      "main",
      "Fix the login redirect",
    ]);
    assertEquals(args.includes("--draft"), true);
    const body = value("--body");
    assertMatch(body, new RegExp(`- Fix the login redirect \\(task ${sent.row.uid}\\)`));
    assertMatch(body, /- The fix/);
    assertMatch(body, /fix\.txt \| 1 \+/);
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), opened.push!.commit);
    // A push does not land the tasks: the work is not on the base yet.
    const row = (await skiff.json<{ row: TaskJson }>(["ledger", "show", sent.row.uid])).row;
    assertEquals(row.state, "sent");

    // A gh that fails: its last line, exit 22, and the push stays.
    await fakeGh(skiff, 'echo "GraphQL: Resource not accessible (createPullRequest)" >&2; exit 1');
    const refused = await refusedJson(skiff, ["land", "fix", "--pr"]);
    assertEquals([refused.code, refused.error.gh], [22, "failed"]);
    assertMatch(refused.error.message, /gh pr create failed: GraphQL: Resource not accessible/);
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/fix"), opened.push!.commit);
  });
});

Deno.test("land: a worktree based on a remote's branch is refused here, and pushed with --push", async () => {
  await withSkiff(async (skiff) => {
    const { repo, bare } = await withRemote(skiff);
    git(repo, "fetch", "-q", "origin");
    await skiff.ok(["new", "--project", "demo", "--worktree", "team", "--base", "origin/main"]);
    const path = join(skiff.env.HOME, ".local/share/skiff/worktrees/demo/team");
    await commitFiles(path, { "team.txt": "team\n" }, "Team work");
    const refused = await refusedJson(skiff, ["land", "team"]);
    assertEquals([refused.code, refused.error.reason], [5, "base_not_branch"]);
    assertMatch(refused.error.message, /'origin\/main' .* is not a local branch.*--push or --pr/);
    const record = await fakeGh(skiff, "echo https://github.invalid/o/r/pull/8");
    const opened = await skiff.json<LandResult>(["land", "team", "--pr"]);
    assertEquals(opened.base.name, "origin/main");
    assertEquals(git(bare, "rev-parse", "refs/heads/skiff/team"), opened.push!.commit);
    const args = (await Deno.readTextFile(record)).split("\0");
    assertEquals(args[args.indexOf("--base") + 1], "main", "the remote's own name for its branch");
  });
});
