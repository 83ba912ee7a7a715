/**
 * `skiff worktree rm` and `prune`, with real git: every refusal says what
 * would be lost and changes nothing; `--force` ends the pane first and
 * removes anyway; the branch stays unless `--delete-branch`, which refuses
 * an unmerged branch without `--force`; a worktree removed by hand, or whose
 * repository moved, shows as missing in one line and is pruned.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  addProject,
  commitAll,
  defaultWorktreePath,
  git,
  makeRepo,
  repoState,
} from "../helpers/git.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { RemovedWorktree, WorktreeInfo } from "../../lib/protocol/worktrees.ts";

async function worktrees(skiff: SkiffEnv): Promise<WorktreeInfo[]> {
  return (await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"])).worktrees;
}

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A repository with project `demo` and a worktree `name` whose pane has ended. */
async function setUp(skiff: SkiffEnv, name: string): Promise<{ repo: string; path: string }> {
  const repo = join(skiff.root, "repo");
  if (!await exists(repo)) {
    await makeRepo(repo);
    await addProject(skiff, "demo", repo);
  }
  await skiff.ok(["new", "--project", "demo", "--worktree", name, "--", ...BASH]);
  await skiff.ok(["kill", name]);
  return { repo, path: defaultWorktreePath(skiff, "demo", name) };
}

/** A refusal of `worktree rm ARGS…`: exit 5, one line matching `line`, nothing changed. */
async function refusedRm(
  skiff: SkiffEnv,
  repo: string,
  args: string[],
  line: RegExp,
): Promise<void> {
  const before = { repo: repoState(repo), trees: JSON.stringify(await worktrees(skiff)) };
  const result = await skiff.run(["worktree", "rm", ...args]);
  assertEquals(result.code, 5, result.stderr);
  const lines = result.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 1, result.stderr);
  assertMatch(lines[0], line);
  assertEquals(repoState(repo), before.repo, "the repository is unchanged");
  assertEquals(JSON.stringify(await worktrees(skiff)), before.trees, "the records are unchanged");
}

Deno.test("worktree rm refuses uncommitted work and commits on no branch, saying what; --force removes", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await setUp(skiff, "wip");
    await Deno.writeTextFile(join(path, "app.txt"), "changed\n");
    await Deno.writeTextFile(join(path, "notes.txt"), "new file\n");
    await refusedRm(
      skiff,
      repo,
      ["wip"],
      /would be lost: uncommitted changes: 1 changed file and 1 untracked file \(app\.txt, notes\.txt\)\. .*--force/,
    );
    // Committed on its branch: nothing is lost, since the branch stays.
    commitAll(path, "work");
    // A commit on a detached HEAD is on no branch at all.
    git(path, "checkout", "-q", "--detach");
    await Deno.writeTextFile(join(path, "detached.txt"), "x\n");
    const lost = commitAll(path, "detached work");
    await refusedRm(
      skiff,
      repo,
      ["demo/wip"],
      new RegExp(
        `1 commit that on no other branch and not on the base 'main' \\(${lost.slice(0, 7)}`,
      ),
    );
    const json = await skiff.run(["worktree", "rm", "wip", "--json"]);
    const error = JSON.parse(json.stderr).error;
    assertEquals([error.code, error.reason], ["conflict", "work_would_be_lost"]);
    const removed = await skiff.json<RemovedWorktree>(["worktree", "rm", "wip", "--force"]);
    assertEquals(removed.discarded.length, 1);
    assertMatch(removed.discarded[0], /1 commit/);
    assertEquals(removed.branch_deleted, false);
    assert(!await exists(path), "the folder is gone");
    assert(!git(repo, "worktree", "list").includes(path), "git's entry is gone");
    assertEquals(git(repo, "log", "-1", "--format=%s", "skiff/wip"), "work", "the branch stays");
    assertEquals(await worktrees(skiff), []);
  });
});

Deno.test("worktree rm refuses while its pane runs; --force ends the pane first", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "busy", "--", ...BASH]);
    // A shell of another pane inside the worktree counts too.
    const path = defaultWorktreePath(skiff, "demo", "busy");
    await skiff.ok(["new", "--name", "visitor", "--cwd", path, "--", ...BASH]);
    await refusedRm(skiff, repo, ["busy"], /in use by running pane p1 \(busy\), p2 \(visitor\)/);
    assertEquals((await panes(skiff)).length, 2);
    const removed = await skiff.json<RemovedWorktree>(["worktree", "rm", "busy", "--force"]);
    assertEquals(removed.panes_killed, ["p1", "p2"]);
    assertEquals(removed.discarded, []);
    assertEquals(await panes(skiff), []);
    assert(!await exists(path));
    git(repo, "rev-parse", "--verify", "refs/heads/skiff/busy");
  });
});

Deno.test("worktree rm --delete-branch refuses an unmerged branch, deletes a merged one, --force deletes any", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await setUp(skiff, "feat");
    await Deno.writeTextFile(join(path, "feature.txt"), "feature\n");
    const commit = commitAll(path, "add the feature");
    await refusedRm(
      skiff,
      repo,
      ["feat", "--delete-branch"],
      new RegExp(
        `1 commit on branch 'skiff/feat' and on no other branch and not on the base 'main' \\(${
          commit.slice(0, 7)
        } add the feature\\)`,
      ),
    );
    // Without --delete-branch it goes: the branch keeps the commit.
    const kept = await skiff.json<RemovedWorktree>(["worktree", "rm", "feat"]);
    assertEquals(kept.branch_deleted, false);
    assertEquals(git(repo, "rev-parse", "skiff/feat"), commit);

    // Merged into the base: --delete-branch deletes it.
    const merged = await setUp(skiff, "merged");
    await Deno.writeTextFile(join(merged.path, "merged.txt"), "merged\n");
    commitAll(merged.path, "merged work");
    git(repo, "merge", "-q", "--no-edit", "skiff/merged");
    const deleted = await skiff.json<RemovedWorktree>([
      "worktree",
      "rm",
      "merged",
      "--delete-branch",
    ]);
    assertEquals(deleted.branch_deleted, true);
    assertEquals(git(repo, "branch", "--list", "skiff/merged"), "");

    // Unmerged, with --force: deleted, and the output says what was thrown away.
    const forced = await setUp(skiff, "drop");
    await Deno.writeTextFile(join(forced.path, "drop.txt"), "drop\n");
    commitAll(forced.path, "work to drop");
    const dropped = await skiff.json<RemovedWorktree>([
      "worktree",
      "rm",
      "drop",
      "--delete-branch",
      "--force",
    ]);
    assertEquals(dropped.branch_deleted, true);
    assertMatch(dropped.discarded.join("\n"), /1 commit on branch 'skiff\/drop'/);
    assertEquals(git(repo, "branch", "--list", "skiff/drop"), "");
  });
});

Deno.test("a worktree removed by hand shows as missing in one line, never a crash; prune tidies it", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await setUp(skiff, "gone");
    await skiff.ok(["new", "--project", "demo", "--worktree", "alive", "--", ...BASH]);
    await Deno.remove(path, { recursive: true });
    const listed = await worktrees(skiff);
    const gone = listed.find((w) => w.name === "gone")!;
    assertEquals([gone.state, gone.dirty, gone.ahead, gone.diff], ["missing", null, null, null]);
    assertMatch(gone.missing!, /its folder .*gone is gone/);
    assertEquals(listed.find((w) => w.name === "alive")!.state, "ok");
    const text = await skiff.run(["worktree", "ls"]);
    assertEquals(text.code, 0, text.stderr);
    assertEquals(
      text.stdout.split("\n").filter((l) => l.includes("is missing")),
      [`demo/gone is missing: ${gone.missing}. 'skiff worktree prune' tidies its record.`],
    );
    const dry = await skiff.json<{ pruned: WorktreeInfo[]; dry_run: boolean }>([
      "worktree",
      "prune",
      "--dry-run",
    ]);
    assertEquals([dry.dry_run, dry.pruned.map((w) => w.name)], [true, ["gone"]]);
    assertEquals((await worktrees(skiff)).length, 2);
    const pruned = await skiff.ok(["worktree", "prune"]);
    assertMatch(pruned, /^Pruned demo\/gone: its folder/);
    assertEquals((await worktrees(skiff)).map((w) => w.name), ["alive"]);
    assert(!git(repo, "worktree", "list").includes(path), "git's entry is tidied");
    git(repo, "rev-parse", "--verify", "refs/heads/skiff/gone");
  });
});

Deno.test("a worktree whose repository moved shows as missing; rm of a missing worktree drops its record", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await setUp(skiff, "moved");
    await Deno.rename(repo, join(skiff.root, "repo-moved"));
    const tree = (await worktrees(skiff))[0];
    assertEquals(tree.state, "missing");
    assertMatch(tree.missing!, /its repository moved or is gone/);
    // The folder still holds files that git can no longer account for.
    const refused = await skiff.run(["worktree", "rm", "moved"]);
    assertEquals(refused.code, 5, refused.stderr);
    assertMatch(refused.stderr, /its repository .* is gone/);
    assert(await exists(path));
    await skiff.ok(["worktree", "rm", "moved", "--force"]);
    assertEquals(await worktrees(skiff), []);
  });
});

Deno.test("worktree rm says which ignored files went with the folder; a name in two projects needs PROJECT/NAME", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"), {
      ".gitignore": "build/\n*.log\n",
      "app.txt": "app\n",
    });
    await addProject(skiff, "demo", repo);
    await addProject(skiff, "again", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "w", "--", ...BASH]);
    await skiff.ok([
      "new",
      "--project",
      "again",
      "--worktree",
      "w",
      "--branch",
      "other",
      "--",
      ...BASH,
    ]);
    for (const pane of ["w", "w-2"]) await skiff.ok(["kill", pane]);
    const ambiguous = await skiff.run(["worktree", "rm", "w"]);
    assertEquals(ambiguous.code, 2);
    assertMatch(ambiguous.stderr, /in several projects: name one of demo\/w, again\/w/);
    const path = defaultWorktreePath(skiff, "demo", "w");
    await Deno.mkdir(join(path, "build"));
    await Deno.writeTextFile(join(path, "build", "out.js"), "x\n");
    await Deno.writeTextFile(join(path, "run.log"), "x\n");
    const text = await skiff.ok(["worktree", "rm", "demo/w"]);
    assertMatch(text, /Removed worktree demo\/w \(branch skiff\/w kept\)/);
    assertMatch(text, /Ignored files that went with it: build\/, run\.log/);
    assertEquals((await worktrees(skiff)).map((w) => `${w.project}/${w.name}`), ["again/w"]);
  });
});
