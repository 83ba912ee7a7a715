/**
 * `skiff land` with real git, the landings that go ahead: a rebase with a
 * fast-forward of the checked-out base (with `--commit -m`), `--merge` and
 * `--squash`; `--dry-run`, which changes nothing; the ledger's tasks sent on
 * the branch marked `landed` with the commit range; and what `ls --json` and
 * `worktree ls --json` say afterwards.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { git } from "../helpers/git.ts";
import {
  commitFiles,
  gitCount,
  landingRepo,
  setCheck,
  shellInWorktree,
  snapshot,
  subjects,
} from "../helpers/land.ts";
import { type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import type { LandResult } from "../../lib/protocol/land.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { WorktreeInfo } from "../../lib/protocol/worktrees.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

async function worktree(skiff: SkiffEnv, name: string): Promise<WorktreeInfo> {
  const { worktrees } = await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"]);
  return worktrees.find((w) => w.name === name)!;
}

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

/** A repository whose main moved on after worktree `fix` took two commits. */
async function diverged(skiff: SkiffEnv): Promise<{ repo: string; path: string }> {
  const repo = await landingRepo(skiff);
  await Deno.writeTextFile(join(repo, ".gitignore"), "*.log\n");
  git(repo, "add", ".gitignore");
  git(repo, "commit", "-q", "-m", "ignore logs");
  const path = await shellInWorktree(skiff, "demo", "fix");
  await commitFiles(path, { "fix.txt": "fixed\n" }, "Add the fix");
  await commitFiles(path, { "app.txt": "one\ntwo\nthree\nfour\n" }, "Count to four");
  await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs on main");
  return { repo, path };
}

Deno.test("land: rebase onto the moved base and fast-forward its clean checkout; --commit -m commits the rest first", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await diverged(skiff);
    const mainBefore = git(repo, "rev-parse", "main");
    // Uncommitted work: a changed file, a new file, and an ignored one that stays out.
    await Deno.writeTextFile(join(path, "README.md"), "# demo, fixed\n");
    await Deno.writeTextFile(join(path, "new.txt"), "new\n");
    await Deno.writeTextFile(join(path, "debug.log"), "noise\n");
    const landed = await skiff.json<LandResult>([
      "land",
      "fix",
      "--commit",
      "-m",
      "Finish the fix",
    ]);
    assertEquals(landed.outcome, "landed");
    assertEquals(landed.strategy, "rebase");
    assertEquals(landed.base.where, "checkout");
    assertEquals(landed.base.checkout, repo);
    assertEquals(landed.base.before, mainBefore);
    assertEquals(landed.committed?.message, "Finish the fix");
    assertEquals([...landed.committed!.files].sort(), ["README.md", "new.txt"]);
    const main = git(repo, "rev-parse", "main");
    assertEquals(landed.base.after, main);
    assertEquals(landed.branch.after, main);
    assertEquals(landed.range, `${mainBefore}..${main}`);
    // Linear: the three commits on top of the old base, no merge.
    assertEquals(subjects(repo, "main").slice(0, 4), [
      "Finish the fix",
      "Count to four",
      "Add the fix",
      "Docs on main",
    ]);
    assertEquals(git(repo, "rev-list", "--merges", "main"), "");
    assertEquals(landed.commits.map((c) => c.subject), [
      "Add the fix",
      "Count to four",
      "Finish the fix",
    ]);
    assertEquals(landed.commits.at(-1)!.commit, main);
    // The checkout that has main: fast-forwarded, clean, the files there.
    assertEquals(git(repo, "status", "--porcelain"), "");
    assertEquals(await Deno.readTextFile(join(repo, "fix.txt")), "fixed\n");
    assertEquals(await Deno.readTextFile(join(repo, "new.txt")), "new\n");
    // The worktree is on the landed commit, clean but for the ignored file it kept.
    assertEquals(git(path, "rev-parse", "HEAD"), main);
    assertEquals(git(path, "status", "--porcelain", "--ignored"), "!! debug.log");
    assertEquals(git(repo, "log", "-1", "--format=%an", "main"), "Skiff Test");
    // Ahead drops to zero; behind and merged as git counts them; landed noted.
    const tree = await worktree(skiff, "fix");
    assertEquals([tree.ahead, tree.behind], [
      gitCount(path, "main..HEAD"),
      gitCount(path, "HEAD..main"),
    ]);
    assertEquals([tree.ahead, tree.behind, tree.merged, tree.dirty], [0, 0, true, false]);
    assertEquals(tree.landed?.into, "main");
    assertEquals([tree.landed?.from, tree.landed?.to], [mainBefore, main]);
    assertEquals([tree.landed?.strategy, tree.landed?.commits], ["rebase", 3]);
    const text = await skiff.ok(["worktree", "ls"]);
    assertMatch(text, /demo\/fix\s+skiff\/fix\s+main\s+p1 \(fix\)\s+landed\s+0\s+0\s/);
    // skiff ls --json: the pane's worktree, from the count the landing asked for.
    const listed = (await pane(skiff, "fix")).worktree!;
    assertEquals([listed.ahead, listed.behind, listed.merged], [0, 0, true]);
    assertEquals(listed.landed?.to, main);
    assertMatch(await skiff.ok(["ls"]), /skiff\/fix \(landed\)/);
  });
});

Deno.test("land --merge makes a merge commit; --squash one commit; both land in the checkout", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await diverged(skiff);
    const before = git(repo, "rev-parse", "main");
    const tip = git(path, "rev-parse", "HEAD");
    const text = await skiff.ok(["land", "fix", "--merge"]);
    assertMatch(text, /^Landed 3 commits of skiff\/fix on main \(merge\): [0-9a-f]{12}\.\./);
    const merge = git(repo, "rev-parse", "main");
    assertEquals(
      git(repo, "rev-list", "--parents", "-n", "1", "main"),
      `${merge} ${before} ${tip}`,
    );
    assertEquals(
      git(repo, "log", "-1", "--format=%s", "main"),
      "Merge branch 'skiff/fix' into main",
    );
    assertEquals(git(repo, "status", "--porcelain"), "");
    assertEquals(git(path, "rev-parse", "HEAD"), merge, "the worktree is on the merge");

    // Squash: a second worktree's two commits become one on the base.
    const other = await shellInWorktree(skiff, "demo", "sq");
    await commitFiles(other, { "s1.txt": "1\n" }, "First half");
    await commitFiles(other, { "s2.txt": "2\n" }, "Second half");
    await commitFiles(repo, { "more.txt": "more\n" }, "More on main");
    const base = git(repo, "rev-parse", "main");
    const squashed = await skiff.json<LandResult>(["land", "sq", "--squash"]);
    const tipNow = git(repo, "rev-parse", "main");
    assertEquals(git(repo, "rev-list", "--parents", "-n", "1", "main"), `${tipNow} ${base}`);
    assertEquals(squashed.commits.length, 1);
    assertEquals(squashed.commits[0].commit, tipNow);
    const message = git(repo, "log", "-1", "--format=%B", "main");
    assertMatch(message, /^Work from worktree sq \(skiff\/sq\)\n/);
    assertMatch(message, /\* First half\n\* Second half/);
    assertEquals(git(repo, "show", "--format=", "--name-only", "main").split("\n").sort(), [
      "s1.txt",
      "s2.txt",
    ]);
    assertEquals(git(other, "rev-parse", "HEAD"), tipNow);
    assertEquals((await worktree(skiff, "sq")).merged, true);
  });
});

Deno.test("land --dry-run says what would land and changes nothing", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await diverged(skiff);
    await setCheck(skiff, "demo", "touch ran-the-check");
    await Deno.writeTextFile(join(path, "wip.txt"), "wip\n");
    const before = [await snapshot(repo), await snapshot(path)];
    const plan = await skiff.json<LandResult>(["land", "fix", "--dry-run", "--commit"]);
    assertEquals([plan.outcome, plan.dry_run], ["dry_run", true]);
    assertEquals(plan.base.before, git(repo, "rev-parse", "main"));
    assertEquals([plan.base.after, plan.branch.after, plan.range], [null, null, null]);
    assertEquals(plan.commits.map((c) => [c.commit, c.subject]), [
      [null, "Add the fix"],
      [null, "Count to four"],
      [null, "Work from worktree fix (skiff/fix)"],
    ]);
    assertEquals([plan.check?.command, plan.check?.ran], ["touch ran-the-check", false]);
    assertEquals(plan.diff, { files: 3, added: 3, removed: 0 });
    assertEquals([await snapshot(repo), await snapshot(path)], before);
    const text = await skiff.ok(["land", "fix", "--dry-run", "--commit"]);
    const onto = `onto main at ${git(repo, "rev-parse", "main").slice(0, 12)}`;
    assertEquals(text.split("\n")[0], `Would land 3 commits of skiff/fix ${onto} (rebase)`);
    assertMatch(text, /would fast-forward main in /);
    assertMatch(text, /would run the check: touch ran-the-check/);
    assertEquals([await snapshot(repo), await snapshot(path)], before);
    assert(!(await Deno.stat(join(path, "ran-the-check")).catch(() => null)), "no check ran");
  });
});

Deno.test("land: the tasks sent on the branch are marked landed with the commit range", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const repo = await landingRepo(skiff);
    await skiff.ok(["new", "--project", "demo", "--worktree", "work", "--agent", "fake"]);
    await skiff.ok(["new", "--name", "elsewhere", "--agent", "fake"]);
    for (const p of ["work", "elsewhere"]) {
      await skiff.ok(["wait", p, "--until", "idle", "--timeout", "30"]);
    }
    const send = async (to: string, task: string) => {
      const out = await skiff.json<{ row: TaskJson; exit: number }>([
        "ledger",
        "add",
        "--pane",
        to,
        "--task",
        task,
        "--send",
        "--enter",
      ]);
      assertEquals(out.exit, 0);
      await skiff.ok(["wait", to, "--until", "idle", "--timeout", "30"]);
      return out.row;
    };
    const first = await send("work", "Fix the parser\nwith details");
    const second = await send("work", "Add a test");
    const other = await send("elsewhere", "Not on the branch");
    const pending = await skiff.json<{ row: TaskJson }>([
      "ledger",
      "add",
      "--pane",
      "work",
      "--task",
      "Later",
    ]);
    // The agent's work, as it would commit it.
    const path = join(skiff.env.HOME, ".local/share/skiff/worktrees/demo/work");
    await commitFiles(path, { "parser.txt": "fixed\n" }, "Fix the parser");
    await Deno.writeTextFile(join(path, "test.txt"), "test\n");
    const landed = await skiff.json<LandResult>(["land", "work", "--commit"]);
    assertEquals(landed.tasks.map((t) => [t.uid, t.task]), [
      [first.uid, "Fix the parser"],
      [second.uid, "Add a test"],
    ]);
    // Without -m, the commit's message names the tasks.
    assertEquals(
      git(repo, "log", "-1", "--format=%B", "main"),
      `2 tasks from worktree work (skiff/work)\n\n- Fix the parser (task ${first.uid})\n- Add a test (task ${second.uid})`,
    );
    for (const uid of [first.uid, second.uid]) {
      const shown = (await skiff.json<{ row: TaskJson }>(["ledger", "show", uid])).row;
      assertEquals([shown.state, shown.stored_state], ["landed", "done"]);
      assertEquals(shown.landed?.range, landed.range);
      assertEquals(shown.landed?.into, "main");
      assertEquals(shown.worktree, landed.worktree.id);
      assertMatch(
        await skiff.ok(["ledger", "show", uid]),
        new RegExp(`landed: +${landed.range!.replace(".", "\\.")} on main, `),
      );
    }
    const state = async (uid: string) =>
      (await skiff.json<{ row: TaskJson }>(["ledger", "show", uid])).row.state;
    assertEquals(await state(other.uid), "sent");
    assertEquals(await state(pending.row.uid), "pending");
    const { rows } = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls", "--state", "landed"]);
    assertEquals(rows.map((r) => [r.uid, r.landed?.range]), [
      [first.uid, landed.range!],
      [second.uid, landed.range!],
    ]);
    // Open rows leave landed ones out.
    const open = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls"]);
    assertEquals(open.rows.map((r) => r.uid), [other.uid, pending.row.uid]);
    // A second landing with nothing new: nothing to land, no row changes.
    const again = await skiff.json<LandResult>(["land", "work"]);
    assertEquals([again.outcome, again.tasks], ["up_to_date", []]);
  });
});

Deno.test("land --remove: the landed worktree goes, its pane ended; the branch stays unless --delete-branch", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const keep = await shellInWorktree(skiff, "demo", "keep");
    await commitFiles(keep, { "k.txt": "k\n" }, "Keep the branch");
    const landed = await skiff.json<LandResult>(["land", "keep", "--remove"]);
    assertEquals(landed.removed, { removed: true, branch_deleted: false, panes_killed: ["p1"] });
    assert(!(await Deno.stat(keep).catch(() => null)), "the folder went");
    assertEquals(git(repo, "rev-parse", "skiff/keep"), git(repo, "rev-parse", "main"));
    const drop = await shellInWorktree(skiff, "demo", "drop");
    await commitFiles(drop, { "d.txt": "d\n" }, "Drop the branch");
    const text = await skiff.ok(["land", "drop", "--remove", "--delete-branch"]);
    assertMatch(text, /removed the worktree \(branch deleted\)/);
    assertEquals(git(repo, "branch", "--list", "skiff/drop"), "");
    assertEquals(subjects(repo, "main").slice(0, 2), ["Drop the branch", "Keep the branch"]);
    const { worktrees } = await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"]);
    assertEquals(worktrees, []);
    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    assertEquals(panes, []);
  });
});
