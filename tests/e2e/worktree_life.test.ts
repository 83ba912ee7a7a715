/**
 * A worktree's whole life, as a new user lives it: its pane killed, it is
 * opened again by `new --worktree`, diffed and landed by name; a pane
 * started in its folder by hand is linked to it; behind and merged counted
 * as git counts them; `worktree rm` says what only the kept branch holds;
 * `worktree ls --branches` and `prune --branches` (the merged ones only);
 * and `worktree ls` piped keeps every column whole (issue 28, case 13).
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { git } from "../helpers/git.ts";
import {
  commitFiles,
  gitCount,
  landingRepo,
  refusedJson,
  shellInWorktree,
} from "../helpers/land.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { LandResult } from "../../lib/protocol/land.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { LeftBranch, WorktreeInfo } from "../../lib/protocol/worktrees.ts";

async function worktrees(skiff: SkiffEnv): Promise<WorktreeInfo[]> {
  return (await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"])).worktrees;
}

Deno.test("a killed pane's worktree: diffed by name, opened again by new --worktree, landed by name", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix-a");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await skiff.ok(["kill", "fix-a"]);
    // No pane now: the worktree is still found by its name, as NAME, PROJECT/NAME or --worktree.
    for (const args of [["fix-a"], ["demo/fix-a"], ["--worktree", "fix-a"]]) {
      const diff = await skiff.json<{ pane: string | null; files: number }>([
        "diff",
        ...args,
        "--stat",
      ]);
      assertEquals([diff.pane, diff.files], [null, 1]);
    }
    assertMatch(await skiff.ok(["diff", "fix-a"]), /\+fixed/);
    // Opened again: it says so; nothing new is made.
    const reopened = await skiff.run([
      "new",
      "--project",
      "demo",
      "--worktree",
      "fix-a",
      "--",
      ...BASH,
    ]);
    assertEquals(reopened.code, 0, reopened.stderr);
    assertMatch(reopened.stderr, /Opened again in worktree fix-a on branch skiff\/fix-a: /);
    const trees = await worktrees(skiff);
    assertEquals(trees.length, 1);
    assertEquals([trees[0].pane?.name, trees[0].pane?.status, trees[0].ahead], [
      "fix-a",
      "running",
      1,
    ]);
    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    assertEquals(panes.find((p) => p.name === "fix-a")?.cwd, path);
    // Held by a running pane it is refused, even with --branch.
    for (const extra of [[], ["--branch", "skiff/fix-a"], ["--branch", "other"]]) {
      const held = await refusedJson(skiff, [
        "new",
        "--project",
        "demo",
        "--worktree",
        "fix-a",
        ...extra,
      ]);
      assertEquals(held.code, 5);
      assertMatch(held.error.message, /is held by running pane/);
    }
    await skiff.ok(["kill", "fix-a"]);
    const other = await refusedJson(skiff, [
      "new",
      "--project",
      "demo",
      "--worktree",
      "fix-a",
      "--branch",
      "other",
    ]);
    assertEquals([other.code, other.error.reason], [5, "branch_taken"]);
    const json = await skiff.json<{ worktree_reopened: boolean; branch: string }>([
      "new",
      "--project",
      "demo",
      "--worktree",
      "fix-a",
      "--",
      ...BASH,
    ]);
    assertEquals([json.worktree_reopened, json.branch], [true, "skiff/fix-a"]);
    await skiff.ok(["kill", "fix-a"]);
    // Landed by name, with no pane in it.
    const landed = await skiff.json<LandResult>(["land", "--worktree", "fix-a"]);
    assertEquals([landed.outcome, landed.pane], ["landed", null]);
    assertEquals(git(repo, "rev-parse", "main"), git(path, "rev-parse", "HEAD"));
    assertEquals(git(repo, "log", "-1", "--format=%s"), "The fix");
  });
});

Deno.test("a pane started by hand in a worktree's folder is linked to it: diff and ls find it", async () => {
  await withSkiff(async (skiff) => {
    await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix-b");
    await skiff.ok(["kill", "fix-b"]);
    await skiff.ok(["new", "--name", "byhand", "--cwd", path, "--", ...BASH]);
    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    assertEquals(panes.find((p) => p.name === "byhand")?.worktree?.name, "fix-b");
    const diff = await skiff.json<{ pane: string; files: number }>(["diff", "byhand", "--stat"]);
    assertEquals(diff.files, 0);
    assertEquals((await worktrees(skiff))[0].pane?.name, "byhand");
  });
});

Deno.test("behind and merged are git's own counts; rm says what only the kept branch holds", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "count");
    let tree = (await worktrees(skiff))[0];
    assertEquals(
      [tree.ahead, tree.behind, tree.merged],
      [0, 0, false],
      "a new worktree is not merged",
    );
    await commitFiles(path, { "a.txt": "a\n" }, "A");
    await commitFiles(path, { "b.txt": "b\n" }, "B");
    for (const n of [1, 2, 3]) await commitFiles(repo, { [`m${n}.txt`]: `${n}\n` }, `Main ${n}`);
    tree = (await worktrees(skiff))[0];
    assertEquals([tree.ahead, tree.behind], [
      gitCount(path, "main..HEAD"),
      gitCount(path, "HEAD..main"),
    ]);
    assertEquals([tree.ahead, tree.behind, tree.merged], [2, 3, false]);
    assertMatch(await skiff.ok(["worktree", "ls"]), /demo\/count .* clean\s+2\s+3\s/);
    // Merged by hand into main: ahead 0, merged, but not landed by Skiff.
    git(repo, "merge", "-q", "--no-edit", "skiff/count");
    tree = (await worktrees(skiff))[0];
    // Behind: main's three commits and the merge commit, as git counts them.
    assertEquals(tree.behind, gitCount(path, "HEAD..main"));
    assertEquals([tree.ahead, tree.behind, tree.merged, tree.landed], [0, 4, true, null]);
    assertMatch(await skiff.ok(["worktree", "ls"]), /demo\/count .* merged\s+0\s+4\s/);
    // A commit only its branch holds: rm keeps the branch and says so.
    await commitFiles(path, { "c.txt": "c\n" }, "C");
    await skiff.ok(["kill", "count"]);
    const removed = await skiff.json<{ unique_commits: number; branch_deleted: boolean }>([
      "worktree",
      "rm",
      "count",
    ]);
    assertEquals([removed.unique_commits, removed.branch_deleted], [1, false]);
    assertEquals(gitCount(repo, "main..skiff/count"), 1);
    // Text: one line, naming the branch that keeps them.
    const again = await shellInWorktree(skiff, "demo", "text");
    await commitFiles(again, { "t.txt": "t\n" }, "T");
    await commitFiles(again, { "u.txt": "u\n" }, "U");
    await skiff.ok(["kill", "text"]);
    assertEquals(
      await skiff.ok(["worktree", "rm", "demo/text"]),
      "Removed worktree demo/text (branch skiff/text kept: it alone holds 2 commits)\n",
    );
  });
});

Deno.test("worktree ls --branches lists skiff/* branches whose worktree is gone; prune --branches deletes the merged ones only", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const kept = await shellInWorktree(skiff, "demo", "kept");
    await commitFiles(kept, { "k.txt": "k\n" }, "Unmerged work");
    const done = await shellInWorktree(skiff, "demo", "done");
    await commitFiles(done, { "d.txt": "d\n" }, "Merged work");
    await skiff.ok(["land", "done"]);
    const live = await shellInWorktree(skiff, "demo", "live");
    void live;
    for (const name of ["kept", "done"]) {
      await skiff.ok(["kill", name]);
      await skiff.ok(["worktree", "rm", name]);
    }
    git(repo, "branch", "not-skiff");
    const { branches } = await skiff.json<{ branches: LeftBranch[] }>([
      "worktree",
      "ls",
      "--branches",
    ]);
    assertEquals(branches.map((b) => [b.branch, b.merged, b.ahead, b.base]), [
      ["skiff/done", true, 0, "main"],
      ["skiff/kept", false, 1, "main"],
    ]);
    assertEquals(branches[1].ahead, gitCount(repo, "main..skiff/kept"));
    assertEquals(branches[1].subject, "Unmerged work");
    assertMatch(
      await skiff.ok(["worktree", "ls", "--branches"]),
      /skiff\/kept\s+demo\s+main\s+1\s+1\s+no\s/,
    );
    const dry = await skiff.json<{ branches_deleted: LeftBranch[]; dry_run: boolean }>([
      "worktree",
      "prune",
      "--branches",
      "--dry-run",
    ]);
    assertEquals(dry.branches_deleted.map((b) => b.branch), ["skiff/done"]);
    assert(git(repo, "branch", "--list", "skiff/done") !== "", "a dry run deletes nothing");
    assertMatch(
      await skiff.ok(["worktree", "prune", "--branches"]),
      /Deleted branch skiff\/done \([0-9a-f]{12}, merged into main\)/,
    );
    assertEquals(git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads").split("\n"), [
      "main",
      "not-skiff",
      "skiff/kept",
      "skiff/live",
    ]);
  });
});

Deno.test("worktree ls piped keeps a long path whole (issue 28 case 13)", async () => {
  await withSkiff(async (skiff) => {
    // A worktrees folder deep enough that the PATH column passes 120 characters.
    const deep = join(skiff.root, "a-folder-with-a-long-name-for-worktrees".repeat(3));
    await Deno.mkdir(deep, { recursive: true });
    const repo = await landingRepo(skiff);
    const text = await Deno.readTextFile(skiff.configFile);
    await Deno.writeTextFile(
      skiff.configFile,
      text.replace(`root = "${repo}"`, `root = "${repo}"\nworktrees = "${deep}"`),
    );
    await skiff.ok(["new", "--project", "demo", "--worktree", "long-name", "--", ...BASH]);
    const path = join(deep, "long-name");
    const out = await skiff.ok(["worktree", "ls"], { cwd: skiff.root });
    const line = out.split("\n")[1];
    assert(line.length > 120, `the line is ${line.length} characters`);
    assert(out.includes(path.replace(skiff.env.HOME, "~")), out);
    assert(!out.includes("…"), "nothing is cut");
  });
});
