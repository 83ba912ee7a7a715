/**
 * Where `skiff land` puts the work when the base is checked out nowhere
 * (its ref moved with a compare-and-swap), what happens when someone else
 * moves that ref between the landing's read and its write (refused, their
 * commit kept, the worktree put back), and two landings into one
 * repository at the same moment (the second waits on the lock, then
 * rebases onto the first: both land, history stays linear).
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { git } from "../helpers/git.ts";
import {
  commitFiles,
  landingRepo,
  refusedJson,
  setCheck,
  shellInWorktree,
  snapshot,
  subjects,
} from "../helpers/land.ts";
import { MAIN, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { LandResult } from "../../lib/protocol/land.ts";

Deno.test("land: a base checked out nowhere has its ref moved; the checkouts stay as they are", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    // The main checkout works on another branch: main is checked out nowhere.
    git(repo, "checkout", "-q", "-b", "mine");
    await Deno.writeTextFile(join(repo, "wip.txt"), "my work in progress\n");
    const mainBefore = git(repo, "rev-parse", "main");
    const checkout = await snapshot(repo);
    const landed = await skiff.json<LandResult>(["land", "fix"]);
    assertEquals([landed.base.where, landed.base.checkout], ["ref", null]);
    const main = git(repo, "rev-parse", "main");
    assertEquals(git(repo, "rev-parse", "main~1"), mainBefore);
    assertEquals(landed.base.after, main);
    assertEquals(git(path, "rev-parse", "HEAD"), main);
    assertEquals(git(repo, "log", "-1", "--format=%s", "main"), "The fix");
    // The main checkout is untouched: its branch, its index and its files, the untracked one too.
    const after = await snapshot(repo);
    assertEquals([after.index, after.indexFile, after.files, after.status], [
      checkout.index,
      checkout.indexFile,
      checkout.files,
      checkout.status,
    ]);
    assertEquals(git(repo, "rev-parse", "--abbrev-ref", "HEAD"), "mine");
    assertMatch(git(repo, "reflog", "-1", "main"), /skiff land demo\/fix: 1 commit/);
  });
});

Deno.test("land: the base moved by someone else between the read and the write is refused; nothing is lost", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    git(repo, "checkout", "-q", "-b", "mine");
    // Someone's commit on main, made ready aside (its ref not moved yet).
    const main = git(repo, "rev-parse", "main");
    const tree = git(repo, "rev-parse", "main^{tree}");
    const theirs = git(repo, "commit-tree", tree, "-p", main, "-m", "Pushed meanwhile");
    // The check runs after the landing read main and before it writes it: it moves main there.
    await setCheck(skiff, "demo", `git -C ${repo} update-ref refs/heads/main ${theirs} ${main}`);
    const worktree = await snapshot(path);
    const refused = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([refused.code, refused.error.code, refused.error.reason], [
      5,
      "conflict",
      "base_moved",
    ]);
    assertEquals([refused.error.expected, refused.error.found], [main, theirs]);
    assertMatch(refused.error.message, /main moved while skiff\/fix was landed .*nothing lost/);
    // Their commit stays on main; the worktree is as it was, with its own commit.
    assertEquals(git(repo, "rev-parse", "main"), theirs);
    const { refs: _, ...rest } = await snapshot(path);
    const { refs: __, ...was } = worktree;
    assertEquals(rest, was);
    assertEquals(git(path, "log", "-1", "--format=%s"), "The fix");
    assertEquals(
      git(repo, "for-each-ref", "--format=%(refname) %(objectname)").split("\n").sort(),
      [
        `refs/heads/main ${theirs}`,
        `refs/heads/mine ${main}`,
        `refs/heads/skiff/fix ${git(path, "rev-parse", "HEAD")}`,
      ].sort(),
    );
    // Landed again, it rebases onto their commit.
    await setCheck(skiff, "demo", "true");
    const landed = await skiff.json<LandResult>(["land", "fix"]);
    assertEquals(landed.base.before, theirs);
    assertEquals(subjects(repo, "main").slice(0, 3), ["The fix", "Pushed meanwhile", "Docs"]);
  });
});

/** Whether a process waits on the flock of the file with inode `inode` (a `->` line in /proc/locks). */
function waitsOnLock(inode: number): boolean {
  return Deno.readTextFileSync("/proc/locks").split("\n")
    .some((line) => line.includes("->") && line.includes("FLOCK") && line.includes(`:${inode} `));
}

Deno.test("land: two worktrees landing at once both land, one after the other, history linear", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const one = await shellInWorktree(skiff, "demo", "one");
    const two = await shellInWorktree(skiff, "demo", "two");
    await commitFiles(one, { "one.txt": "1\n" }, "One");
    await commitFiles(two, { "two.txt": "2\n" }, "Two");
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    // The first landing's check holds it until the second waits on the repository's lock.
    const go = join(skiff.root, "go");
    const started = join(skiff.root, "started");
    const both = join(skiff.root, "both-in-a-check");
    await setCheck(
      skiff,
      "demo",
      `mkdir ${both} || exit 9; touch ${started}; while [ ! -e ${go} ]; do sleep 0.05; done; rmdir ${both}`,
    );
    const first = skiff.run(["land", "one", "--json"]);
    await waitFor("the first landing's check", async () => {
      try {
        await Deno.stat(started);
        return true;
      } catch {
        return false;
      }
    }, { timeout: 30_000 });
    const second = skiff.run(["land", "two", "--json"]);
    const lock = join(repo, ".git", "skiff", "land.lock");
    const inode = Deno.statSync(lock).ino!;
    await waitFor("the second landing to wait on the lock", () => waitsOnLock(inode), {
      timeout: 30_000,
    });
    await Deno.writeTextFile(go, "");
    const [a, b] = await Promise.all([first, second]);
    assertEquals([a.code, b.code], [0, 0], `${a.stderr}\n${b.stderr}`);
    const [landedA, landedB] = [JSON.parse(a.stdout), JSON.parse(b.stdout)] as LandResult[];
    // The second rebased onto the first's result.
    assertEquals(landedB.base.before, landedA.base.after);
    assertEquals(subjects(repo, "main").slice(0, 3), ["Two", "One", "Docs"]);
    assertEquals(git(repo, "rev-list", "--merges", "main"), "");
    assertEquals(git(repo, "status", "--porcelain"), "");
    for (const file of ["one.txt", "two.txt", "docs.txt"]) {
      await Deno.stat(join(repo, file));
    }
  });
});

Deno.test("land: a lander killed mid-landing holds nothing up; the next one undoes its steps, then lands", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    const before = await snapshot(path);
    const started = join(skiff.root, "started");
    const script = join(skiff.root, `hold-${crypto.randomUUID()}.sh`);
    await Deno.writeTextFile(script, `touch ${started}\nsleep 600\n`);
    await setCheck(skiff, "demo", `sh ${script}`);
    const lander = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "-q", MAIN, "land", "fix"],
      env: skiff.env,
      clearEnv: true,
      cwd: skiff.env.HOME,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitFor("the check to start", async () => {
      try {
        await Deno.stat(started);
        return true;
      } catch {
        return false;
      }
    }, { timeout: 30_000 });
    // By now the worktree was moved onto main; the lander dies without putting it back.
    assertEquals(git(path, "rev-parse", "HEAD~1"), git(repo, "rev-parse", "main"));
    lander.kill("SIGKILL");
    await lander.status;
    for (const pid of running(script)) Deno.kill(pid, "SIGKILL");
    await setCheck(skiff, "demo", "true");
    const landed = await skiff.json<LandResult>(["land", "fix", "--dry-run"]);
    assertEquals(landed.warnings, [], "a dry run takes no lock and finishes nothing");
    const next = await skiff.json<LandResult>(["land", "fix"]);
    assertEquals(next.outcome, "landed");
    assertEquals(next.warnings.length, 1);
    assertMatch(
      next.warnings[0],
      /^Before this landing, Skiff undid a landing of skiff\/fix of demo\/fix that was cut off \(pid \d+, /,
    );
    // It started from the worktree as it was before the killed landing.
    assertEquals(next.branch.before, before.refs.match(/refs\/heads\/skiff\/fix (\w+)/)![1]);
    assertEquals(subjects(repo, "main").slice(0, 2), ["The fix", "Docs"]);
    assertEquals(git(repo, "status", "--porcelain"), "");
    assertEquals(
      [...Deno.readDirSync(join(repo, ".git", "skiff"))].map((e) => e.name).sort(),
      ["land.lock"],
      "no journal or copy is left",
    );
  });
});

/** The processes whose command line holds `marker`. */
function running(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).includes(marker)) {
        pids.push(Number(entry.name));
      }
    } catch {
      // Gone.
    }
  }
  return pids;
}
