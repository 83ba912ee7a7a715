/**
 * A worktree's changes, with real git: `worktree ls` dirty, ahead and diff
 * figures against git's own; `skiff diff` (patch, `--stat`, `--json`, the
 * pager on a terminal); and the `worktree` and `diff` fields of
 * `skiff ls --json`, counted after a turn end, not when `ls` runs.
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
  placeOf,
} from "../helpers/git.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { DiffStat, WorktreeInfo } from "../../lib/protocol/worktrees.ts";

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

/**
 * Git's own count of everything in `path` against `base`: every file, the
 * untracked ones included, added to a scratch index and diffed from the
 * merge base.
 */
function gitsOwnStat(path: string, base: string): DiffStat {
  const from = git(path, "merge-base", base, "HEAD");
  const index = Deno.makeTempFileSync();
  const run = (...args: string[]) => {
    const out = new Deno.Command("git", {
      args,
      cwd: path,
      env: { GIT_INDEX_FILE: index, GIT_CONFIG_GLOBAL: "/dev/null" },
      stdout: "piped",
    }).outputSync();
    assert(out.success, `git ${args.join(" ")}`);
    return new TextDecoder().decode(out.stdout);
  };
  try {
    Deno.removeSync(index);
    run("read-tree", "HEAD");
    run("add", "-A");
    const rows = run("diff", "--cached", "--numstat", from).trim().split("\n").filter(Boolean);
    return rows.reduce((sum, row) => {
      const [a, r] = row.split("\t");
      return {
        files: sum.files + 1,
        added: sum.added + (a === "-" ? 0 : Number(a)),
        removed: sum.removed + (r === "-" ? 0 : Number(r)),
      };
    }, { files: 0, added: 0, removed: 0 });
  } finally {
    Deno.removeSync(index, { recursive: true });
  }
}

/** Commits, edits, deletes and adds files in a worktree. */
async function makeChanges(path: string): Promise<void> {
  await Deno.writeTextFile(join(path, "committed.txt"), "a\nb\nc\n");
  commitAll(path, "first change");
  await Deno.writeTextFile(join(path, "app.txt"), "one\nTWO\nthree\nfour\n");
  commitAll(path, "second change");
  await Deno.writeTextFile(join(path, "README.md"), "# demo, edited\nmore\n");
  git(path, "add", "README.md");
  await Deno.writeTextFile(join(path, "committed.txt"), "a\n");
  await Deno.writeTextFile(join(path, "untracked.txt"), "new\nfile\nno newline at the end");
  await Deno.writeFile(join(path, "blob.bin"), new Uint8Array([1, 0, 2, 0]));
}

Deno.test("worktree ls: dirty, ahead and diff figures match git's own", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "calc", "--", ...BASH]);
    const path = defaultWorktreePath(skiff, "demo", "calc");
    const clean = (await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"])).worktrees;
    assertEquals([clean[0].dirty, clean[0].ahead, clean[0].diff], [false, 0, {
      files: 0,
      added: 0,
      removed: 0,
    }]);
    await makeChanges(path);
    // The base moves on meanwhile: the worktree is compared from where it left it.
    await Deno.writeTextFile(join(repo, "main-only.txt"), "main\n");
    commitAll(repo, "main moves");
    const tree = (await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"])).worktrees[0];
    assertEquals(tree.dirty, git(path, "status", "--porcelain") !== "");
    assertEquals(tree.dirty, true);
    assertEquals(tree.ahead, Number(git(path, "rev-list", "--count", "main..HEAD")));
    assertEquals(tree.ahead, 2);
    assertEquals(tree.diff, gitsOwnStat(path, "main"));
    assertEquals(tree.diff, { files: 5, added: 8, removed: 2 });
    // Behind: the base's commit the worktree lacks, as git counts it.
    assertEquals(tree.behind, Number(git(path, "rev-list", "--count", "HEAD..main")));
    assertEquals([tree.behind, tree.merged], [1, false]);
    const text = await skiff.ok(["worktree", "ls"]);
    assertMatch(
      text,
      /demo\/calc\s+skiff\/calc\s+main\s+p1 \(calc\)\s+dirty\s+2\s+1\s+5 files \+8 -2/,
    );
  });
});

Deno.test("diff: the patch, --stat and --json of a pane's worktree against its base", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "d", "--", ...BASH]);
    const path = defaultWorktreePath(skiff, "demo", "d");
    await makeChanges(path);
    const patch = await skiff.ok(["diff", "d"]);
    // Git's own patch of the tracked files comes first, then each untracked file as new.
    const tracked = git(path, "diff", "--no-color", git(path, "merge-base", "main", "HEAD"), "--");
    assert(patch.startsWith(tracked), patch);
    assertMatch(patch, /diff --git a\/untracked\.txt b\/untracked\.txt\nnew file mode 100644/);
    assertMatch(patch, /\+no newline at the end\n\\ No newline at end of file/);
    assertMatch(patch, /Binary files \/dev\/null and b\/blob\.bin differ/);
    assert(!patch.includes("\x1b["), "no colour off a terminal");

    const stat = await skiff.ok(["diff", "d", "--stat"]);
    assertMatch(stat, /^ untracked\.txt \(new\) +\| \+3 -0$/m);
    assertMatch(stat, /^ blob\.bin \(new\) +\| bin$/m);
    assertMatch(stat, /^ 5 files changed, 8 insertions\(\+\), 2 deletions\(-\)$/m);

    const json = await skiff.json<{
      files: number;
      added: number;
      removed: number;
      worktree: { name: string; branch: string; base: string };
      changes: { path: string; untracked: boolean; binary: boolean }[];
      patch: string;
    }>(["diff", "d"]);
    assertEquals([json.files, json.added, json.removed], [5, 8, 2]);
    assertEquals(json.worktree.branch, "skiff/d");
    assertEquals(json.patch, patch);
    assertEquals(
      json.changes.filter((c) => c.untracked).map((c) => [c.path, c.binary]).sort(),
      [["blob.bin", true], ["untracked.txt", false]],
    );
    // `diff` asks for a count: ls shows the figures soon after, with no turn end.
    await waitFor(
      "the count diff asked for",
      async () =>
        JSON.stringify((await pane(skiff, "d")).diff) ===
          JSON.stringify({ files: 5, added: 8, removed: 2 }),
    );

    // A clean worktree, a pane with no worktree, a pane that does not exist.
    await skiff.ok(["new", "--project", "demo", "--worktree", "clean", "--", ...BASH]);
    assertEquals(
      await skiff.ok(["diff", "clean"]),
      "No changes in clean (skiff/clean) against main.\n",
    );
    await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
    for (
      const [ref, line] of [["plain", /Pane 'plain' has no worktree/], [
        "nope",
        /No pane or worktree 'nope'/,
      ]] as const
    ) {
      const result = await skiff.run(["diff", ref]);
      assertEquals(result.code, 3);
      assertEquals(result.stderr.trimEnd().split("\n").length, 1);
      assertMatch(result.stderr, line);
    }
  });
});

Deno.test("diff on a terminal goes through git's pager", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "paged", "--", ...BASH]);
    await Deno.writeTextFile(join(defaultWorktreePath(skiff, "demo", "paged"), "app.txt"), "x\n");
    const terminal = await TestTerminal.start(
      [Deno.execPath(), "run", "-A", "-q", MAIN, "diff", "paged"],
      { env: { ...skiff.env, GIT_PAGER: "sed -e 's/^/PAGED: /'" }, cwd: skiff.env.HOME },
    );
    try {
      assertEquals(await terminal.exited, 0);
      const text = await terminal.waitForText("PAGED: diff --git a/app.txt b/app.txt");
      assertMatch(text, /PAGED: .*\+x/);
      assert(terminal.raw.includes("\x1b["), "colour on a terminal");
    } finally {
      terminal.kill();
    }
  });
});

Deno.test("ls: the worktree and diff fields, counted after a turn end and not by ls; text ls shows the branch", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "agent", "--agent", "fake"]);
    await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
    await skiff.ok(["wait", "agent", "--until", "idle", "--timeout", "30"]);
    const path = defaultWorktreePath(skiff, "demo", "agent");
    let info = await pane(skiff, "agent");
    assertEquals(placeOf(info.worktree), { name: "agent", branch: "skiff/agent", path });
    assertEquals(info.diff, { files: 0, added: 0, removed: 0 });
    const plain = await pane(skiff, "plain");
    assertEquals([plain.worktree, plain.diff], [null, null]);

    // An edit (as the agent would make) is not counted by ls...
    await Deno.writeTextFile(join(path, "edit.txt"), "one\ntwo\n");
    for (let i = 0; i < 3; i++) {
      assertEquals((await pane(skiff, "agent")).diff, { files: 0, added: 0, removed: 0 });
    }
    // ...but after the turn that made it ends.
    await skiff.ok(["send", "agent", "write edit.txt", "--enter"]);
    info = await waitFor("the count after the turn end", async () => {
      const now = await pane(skiff, "agent");
      return now.diff?.files === 1 ? now : undefined;
    }, { timeout: 20_000 });
    assertEquals(info.diff, { files: 1, added: 2, removed: 0 });
    // The branch the worktree is on now.
    git(path, "checkout", "-q", "-b", "renamed");
    await skiff.ok(["send", "agent", "again", "--enter"]);
    await waitFor(
      "the new branch",
      async () => (await pane(skiff, "agent")).worktree?.branch === "renamed",
      { timeout: 20_000 },
    );
    const text = await skiff.ok(["ls"]);
    const header = text.split("\n")[0];
    assert(header.includes("BRANCH"), header);
    assertMatch(text, /^p1\s+agent\s+demo\s+renamed\s/m);
    assertMatch(text, /^p2\s+plain\s+-\s+-\s/m);
  });
});
