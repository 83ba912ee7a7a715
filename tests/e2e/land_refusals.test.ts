/**
 * `skiff land` refusals with real git: each is one line, its documented
 * exit code and JSON reason, and leaves the repository exactly as it was:
 * every ref (`git for-each-ref`), the index (`git ls-files -s` and a hash
 * of the index file), a hash of every file of both checkouts, and `git
 * status --porcelain`. A conflict lists the files and `--to-pane` hands it
 * to the worker through the ledger's guarded delivery; a failing check and
 * a hanging one (ended with everything it started); a dirty base checkout;
 * uncommitted work; a pane in a turn.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { loggedPrompts, useFakeAgent } from "../helpers/fake_agent.ts";
import { git } from "../helpers/git.ts";
import {
  commitFiles,
  landingRepo,
  refusedJson,
  setCheck,
  shellInWorktree,
  type Snapshot,
  snapshot,
} from "../helpers/land.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";
import type { CheckReport } from "../../lib/protocol/land.ts";

/** Both checkouts as they are: the main one and the worktree. */
async function both(repo: string, path: string): Promise<Snapshot[]> {
  return [await snapshot(repo), await snapshot(path)];
}

/** Runs `skiff land ARGS…` in text mode: it must fail with `code` and one line (after `extra` lines). */
async function refusedText(
  skiff: SkiffEnv,
  args: string[],
  code: number,
  line: RegExp,
): Promise<string[]> {
  const result = await skiff.run(["land", ...args]);
  assertEquals(result.code, code, result.stderr);
  assertEquals(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assertMatch(lines.at(-1)!, line);
  assertMatch(lines.at(-1)!, /^skiff: /);
  return lines;
}

/** Worktree `fix` changes line two of app.txt, and main changes it another way. */
async function conflicting(
  skiff: SkiffEnv,
  worker?: string[],
): Promise<{ repo: string; path: string }> {
  const repo = await landingRepo(skiff);
  const path = worker
    ? (await skiff.ok(["new", "--project", "demo", "--worktree", "fix", ...worker]),
      join(skiff.env.HOME, ".local/share/skiff/worktrees/demo/fix"))
    : await shellInWorktree(skiff, "demo", "fix");
  await commitFiles(path, { "ok.txt": "fine\n" }, "A clean change");
  await commitFiles(path, { "app.txt": "one\nTWO from fix\nthree\n" }, "Change line two");
  await commitFiles(repo, { "app.txt": "one\nTWO from main\nthree\n" }, "Main changes line two");
  return { repo, path };
}

Deno.test("land: a conflict changes nothing and lists the files (exit 19); no rebase is left half done", async () => {
  await withSkiff(async (skiff) => {
    const { repo, path } = await conflicting(skiff);
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([refused.code, refused.error.code], [19, "merge_conflict"]);
    assertEquals(refused.error.reason, "merge_conflict");
    assertEquals(refused.error.conflicts, ["app.txt"]);
    assertEquals(refused.error.commit, git(path, "rev-parse", "HEAD"));
    assertEquals(await both(repo, path), before);
    assertEquals(before[1].leftovers, []);
    // The same with --merge and --squash, and as text: one line naming the file.
    for (const how of [["--merge"], ["--squash"], []]) {
      await refusedText(skiff, ["fix", ...how], 19, /does not apply on main.*: app\.txt conflict/);
      assertEquals(await both(repo, path), before);
    }
  });
});

Deno.test("land --to-pane sends the worker a task naming the files, through the ledger's guarded send", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.jsonl");
    const { repo, path } = await conflicting(skiff, [
      "--agent",
      "fake",
      "--env",
      `FAKE_LOG=${log}`,
    ]);
    await skiff.ok(["wait", "fix", "--until", "idle", "--timeout", "30"]);
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix", "--to-pane"]);
    assertEquals(refused.code, 19);
    const sent = refused.error.to_pane as { uid: string; state: string; exit: number };
    assertEquals([sent.state, sent.exit], ["sent", 0]);
    assertEquals(await both(repo, path), before);
    const prompts = await waitFor("the worker to get the task", async () => {
      const got = await loggedPrompts(log);
      return got.length > 0 ? got : undefined;
    }, { timeout: 20_000 });
    assertMatch(prompts[0], /skiff\/fix conflicts with main/);
    assertMatch(prompts[0], /resolve the conflicts in: app\.txt/);
    assertMatch(prompts[0], new RegExp(`Skiff task ${sent.uid}`));
    const row = (await skiff.json<{ row: TaskJson }>(["ledger", "show", sent.uid])).row;
    assertEquals([row.pane_name, row.stored_state, row.branch], ["fix", "sent", "skiff/fix"]);
    // While the worker is in a turn, a landing is refused: its files may be changing.
    await skiff.ok(["wait", "fix", "--until", "idle", "--timeout", "30"]);
    const release = join(skiff.root, "turn-ends");
    await skiff.ok(["send", "fix", `HOLD ${release} work on`, "--enter"]);
    await skiff.ok(["wait", "fix", "--until", "working", "--timeout", "30"]);
    const busy = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([busy.code, busy.error.reason, busy.error.state], [5, "pane_busy", "working"]);
    assertMatch(busy.error.message, /Pane fix is working in demo\/fix: wait until its turn ends/);
    assertEquals(await both(repo, path), before);
    await Deno.writeTextFile(release, "");
  });
});

Deno.test("land: a failing check refuses the landing, shows its last lines, and puts the worktree back", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    // The base moved, so the worktree is rebased and moved before the check runs.
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    await setCheck(
      skiff,
      "demo",
      "echo checking in $(basename $PWD) on $SKIFF_LAND_BRANCH; test -f docs.txt && echo 'tests failed: 3' >&2; exit 3",
    );
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([refused.code, refused.error.code, refused.error.reason], [
      20,
      "check_failed",
      "check_failed",
    ]);
    const check = refused.error.check as CheckReport;
    assertEquals([check.exit_code, check.timed_out, check.ran], [3, false, true]);
    // It ran in the worktree, rebased onto the base (docs.txt is there).
    assertEquals(check.output_tail, ["checking in fix on skiff/fix", "tests failed: 3"]);
    assertEquals(check.cwd, path);
    assertEquals(await both(repo, path), before);
    const lines = await refusedText(
      skiff,
      ["fix"],
      20,
      /The check \(.*\) exited 3: tests failed: 3; nothing was landed/,
    );
    assertMatch(lines[0], /^Running the check in .*fix: echo checking/);
    assertEquals(lines.slice(1, -1), ["  | checking in fix on skiff/fix", "  | tests failed: 3"]);
    assertEquals(await both(repo, path), before);
    // --no-check lands it.
    await skiff.ok(["land", "fix", "--no-check"]);
    assertEquals(git(repo, "rev-parse", "main"), git(path, "rev-parse", "HEAD"));
  });
});

/** The processes whose command line holds `marker`. */
function running(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(marker)) pids.push(Number(entry.name));
    } catch {
      // Gone.
    }
  }
  return pids;
}

Deno.test("land: a check that hangs is ended with all it started, counts as failed, and changes nothing", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await commitFiles(repo, { "docs.txt": "docs\n" }, "Docs");
    const script = join(skiff.root, `hang-${crypto.randomUUID()}.sh`);
    // It starts a child of its own in the background, then hangs: both must be ended.
    await Deno.writeTextFile(script, "sleep 300 &\necho started the tests\nsleep 300\n");
    await setCheck(skiff, "demo", `sh ${script}`);
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix", "--check-timeout", "1"]);
    assertEquals(refused.code, 20);
    const check = refused.error.check as CheckReport;
    assertEquals([check.timed_out, check.exit_code], [true, null]);
    assertEquals(check.output_tail, ["started the tests"]);
    assertMatch(refused.error.message, /ran longer than 1 s and was ended/);
    assertEquals(running(script), [], "nothing the check started is left");
    assertEquals(await both(repo, path), before);
  });
});

Deno.test("land: a dirty checkout of the base is refused and its files are untouched", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await Deno.writeTextFile(join(repo, "app.txt"), "my own edit, not committed\n");
    await Deno.writeTextFile(join(repo, "scratch.txt"), "mine\n");
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([refused.code, refused.error.reason], [5, "base_dirty"]);
    assertEquals([refused.error.checkout, refused.error.files], [repo, ["app.txt"]]);
    assertEquals(await both(repo, path), before);
    await refusedText(skiff, ["fix"], 5, /has main checked out and holds changes \(app\.txt\)/);
    // An untracked file where the landing would put one is refused too.
    git(repo, "checkout", "--", "app.txt");
    await Deno.writeTextFile(join(repo, "fix.txt"), "mine, untracked\n");
    const inTheWay = await both(repo, path);
    const untracked = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([untracked.code, untracked.error.reason], [5, "base_untracked"]);
    assertEquals(untracked.error.files, ["fix.txt"]);
    assertEquals(await both(repo, path), inTheWay);
    assertEquals(await Deno.readTextFile(join(repo, "fix.txt")), "mine, untracked\n");
  });
});

Deno.test("land: uncommitted work without --commit is refused with the files", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const path = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(path, { "fix.txt": "fixed\n" }, "The fix");
    await Deno.writeTextFile(join(path, "app.txt"), "edited\n");
    await Deno.writeTextFile(join(path, "new.txt"), "new\n");
    const before = await both(repo, path);
    const refused = await refusedJson(skiff, ["land", "fix"]);
    assertEquals([refused.code, refused.error.reason], [5, "uncommitted"]);
    assertEquals(refused.error.files, ["app.txt", "new.txt"]);
    assertEquals(await both(repo, path), before);
    await refusedText(
      skiff,
      ["fix"],
      5,
      /holds uncommitted work \(app\.txt, new\.txt\): commit it, or land with --commit/,
    );
    // Bad usage is one line, exit 2, before anything is read.
    for (
      const args of [["fix", "-m", "x"], ["fix", "--delete-branch"], ["fix", "--draft"], [
        "fix",
        "origin",
      ]]
    ) {
      const result = await skiff.run(["land", ...args]);
      assertEquals(result.code, 2, `${args}: ${result.stderr}`);
      assertEquals(result.stderr.trimEnd().split("\n").length, 1);
    }
    assertEquals(await both(repo, path), before);
    const missing = await refusedJson(skiff, ["land", "nope"]);
    assertEquals([missing.code, missing.error.code], [3, "not_found"]);
    assert(String(missing.error.message).includes("No pane or worktree 'nope'"));
  });
});
