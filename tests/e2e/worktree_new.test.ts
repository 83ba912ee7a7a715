/**
 * `skiff new --project P --worktree NAME`, with real git in temporary
 * repositories: two panes in two worktrees of one repository edit the same
 * file without touching each other; every refusal is one line with its exit
 * code and leaves no pane, no worktree and the repository as it was; an
 * existing branch and a base; killing a pane leaves its worktree; a restore
 * comes back in it.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  addProject,
  defaultWorktreePath,
  git,
  makeRepo,
  placeOf,
  repoState,
  shellReady,
} from "../helpers/git.ts";
import { BASH, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { WorktreeInfo } from "../../lib/protocol/worktrees.ts";

/** Who commits in a pane: the test HOME has no git config. */
const AUTHOR = [
  "--env",
  "GIT_AUTHOR_NAME=Pane",
  "--env",
  "GIT_AUTHOR_EMAIL=pane@skiff.invalid",
  "--env",
  "GIT_COMMITTER_NAME=Pane",
  "--env",
  "GIT_COMMITTER_EMAIL=pane@skiff.invalid",
];

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** What `new --json` prints. */
interface NewJson {
  id: string;
  name: string;
  branch: string | null;
  worktree: { name: string; branch: string; path: string } | null;
  pane: PaneInfo;
}

/** Runs `skiff new ARGS… --json -- bash` and reads its JSON. */
async function newPane(skiff: SkiffEnv, args: string[]): Promise<NewJson> {
  return JSON.parse(await skiff.ok(["new", ...args, "--json", "--", ...BASH]));
}

async function worktrees(skiff: SkiffEnv): Promise<WorktreeInfo[]> {
  return (await skiff.json<{ worktrees: WorktreeInfo[] }>(["worktree", "ls"])).worktrees;
}

/** Types a command line into a pane's shell and presses Enter. */
async function typeLine(skiff: SkiffEnv, pane: string, line: string): Promise<void> {
  await skiff.ok(["keys", "--literal", pane, line]);
  await skiff.ok(["keys", pane, "Enter"]);
}

Deno.test("new --worktree: two panes in two worktrees of one repository edit one file apart", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    const made: Record<string, { id: string; name: string; branch: string; path: string }> = {};
    for (const name of ["one", "two"]) {
      const out = await newPane(skiff, ["--project", "demo", "--worktree", name, ...AUTHOR]);
      assertEquals([out.name, out.branch, out.worktree?.name], [name, `skiff/${name}`, name]);
      assertEquals(out.worktree?.path, defaultWorktreePath(skiff, "demo", name));
      made[name] = { id: out.id, name: out.name, branch: out.branch!, path: out.worktree!.path };
    }
    // Each edits app.txt and commits, at the same time.
    for (const name of ["one", "two"]) await shellReady(skiff, name);
    for (const name of ["one", "two"]) {
      await typeLine(
        skiff,
        name,
        `pwd > where.txt; echo from-${name} >> app.txt && git commit -qam ${name} && echo DONE-${name}`,
      );
    }
    for (const name of ["one", "two"]) await skiff.waitForScreen(name, `DONE-${name}`);
    for (const name of ["one", "two"]) {
      const path = made[name].path;
      assertEquals(await Deno.readTextFile(join(path, "where.txt")), `${path}\n`);
      assertEquals(
        await Deno.readTextFile(join(path, "app.txt")),
        `one\ntwo\nthree\nfrom-${name}\n`,
      );
      assertEquals(git(repo, "log", "-1", "--format=%s", `skiff/${name}`), name);
      assertEquals(git(repo, "rev-list", "--count", `main..skiff/${name}`), "1");
    }
    // The repository's own checkout is untouched.
    assertEquals(await Deno.readTextFile(join(repo, "app.txt")), "one\ntwo\nthree\n");
    assertEquals(git(repo, "status", "--porcelain"), "");
    const listed = await panes(skiff);
    for (const name of ["one", "two"]) {
      const pane = listed.find((p) => p.name === name)!;
      assertEquals(pane.project, "demo");
      assertEquals(pane.cwd, made[name].path);
      assertEquals(placeOf(pane.worktree), {
        name,
        branch: `skiff/${name}`,
        path: made[name].path,
      });
    }
    const trees = await worktrees(skiff);
    assertEquals(trees.map((w) => [w.name, w.branch, w.base, w.pane?.name, w.ahead]), [
      ["one", "skiff/one", "main", "one", 1],
      ["two", "skiff/two", "main", "two", 1],
    ]);
  });
});

/** One refusal: its exit code, one line on stderr, and nothing made. */
async function refused(
  skiff: SkiffEnv,
  repo: string,
  args: string[],
  expect: { code: number; line: RegExp },
): Promise<void> {
  const before = { repo: repoState(repo), panes: (await panes(skiff)).length };
  const result = await skiff.run(args);
  assertEquals(result.code, expect.code, `${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 1, result.stderr);
  assertMatch(lines[0], expect.line);
  assertEquals(repoState(repo), before.repo, `${args.join(" ")} changed the repository`);
  assertEquals((await panes(skiff)).length, before.panes, `${args.join(" ")} left a pane`);
}

Deno.test("new --worktree refusals: one line, their exit code, no pane, no worktree, the repository unchanged", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    const plain = join(skiff.root, "plain");
    await Deno.mkdir(plain);
    await addProject(skiff, "demo", repo);
    await addProject(skiff, "plain", plain);
    const gone = join(skiff.root, "gone");
    await Deno.mkdir(gone);
    await addProject(skiff, "gone", gone);
    await Deno.remove(gone);
    await skiff.ok(["new", "--project", "demo", "--worktree", "taken", "--", ...BASH]);
    git(repo, "branch", "skiff/has-branch");
    git(repo, "tag", "v1");
    const cases: [string[], number, RegExp][] = [
      [
        ["--project", "plain", "--worktree", "x"],
        2,
        /Project 'plain' \(.*\) is not in a Git repository/,
      ],
      [
        ["--project", "demo", "--worktree", "taken"],
        5,
        /Worktree 'demo\/taken' is held by running pane p\d+ \(taken\)/,
      ],
      [
        ["--project", "demo", "--worktree", "has-branch"],
        5,
        /Branch 'skiff\/has-branch' exists already/,
      ],
      [
        ["--project", "demo", "--worktree", "x", "--branch", "main"],
        5,
        /Branch 'main' is checked out in .*repo already/,
      ],
      [
        ["--project", "demo", "--worktree", "x", "--base", "no-such-ref"],
        3,
        /Base 'no-such-ref' does not exist/,
      ],
      [["--project", "demo", "--worktree", "bad name"], 2, /Bad worktree name 'bad name'/],
      [["--project", "demo", "--worktree", "x", "--branch", "bad..branch"], 2, /Bad branch name/],
      [["--worktree", "x"], 2, /A worktree needs a project/],
      [["--project", "demo", "--worktree", "x", "--cwd", repo], 2, /cwd/],
      [
        ["--project", "demo", "--worktree", "x", "--name", "taken"],
        5,
        /A pane named 'taken' exists/,
      ],
      [["--project", "nope", "--worktree", "x"], 3, /No project 'nope'/],
      [["--project", "gone", "--worktree", "x"], 2, /Project 'gone': its folder .* does not exist/],
      // The pane cannot start: the worktree made for it goes again, with its branch.
      [
        ["--project", "demo", "--worktree", "x", "--", "no-such-program-xyz"],
        3,
        /no-such-program-xyz/,
      ],
    ];
    for (const [args, code, line] of cases) {
      await refused(skiff, repo, ["new", ...args], { code, line });
    }
    assertEquals((await worktrees(skiff)).map((w) => w.name), ["taken"]);
    assert(!await exists(defaultWorktreePath(skiff, "demo", "x")), "no folder for x");
  });
});

Deno.test("without git: new --worktree and worktree ls say so in one line, exit 3; nothing made or lost", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "had", "--", ...BASH]);
    await skiff.ok(["daemon", "stop"]);
    const path = skiff.env.PATH;
    // skiffd, started by the first command below, finds no git on its PATH.
    skiff.env.PATH = join(skiff.root, "no-bin");
    await refused(skiff, repo, ["new", "--project", "demo", "--worktree", "x"], {
      code: 3,
      line: /git is not installed/,
    });
    const json = await skiff.run(["new", "--project", "demo", "--worktree", "x", "--json"]);
    assertEquals(JSON.parse(json.stderr).error.code, "not_found");
    const listed = await skiff.run(["worktree", "ls"]);
    assertEquals(listed.code, 3, listed.stderr);
    assertEquals(
      listed.stderr,
      "skiff: git is not installed (no 'git' on the PATH skiffd has): worktrees need it\n",
    );
    // Prune goes by the file system, so a missing git prunes nothing.
    assertEquals(await skiff.ok(["worktree", "prune"]), "No missing worktrees.\n");
    // With git back, the worktree made before is listed as it was.
    await skiff.ok(["daemon", "stop"]);
    skiff.env.PATH = path;
    assertEquals((await worktrees(skiff)).map((w) => [w.name, w.state]), [["had", "ok"]]);
  });
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("new --worktree --branch checks out an existing branch; --base starts a new one there", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    const first = git(repo, "rev-parse", "HEAD");
    git(repo, "branch", "feature");
    await Deno.writeTextFile(join(repo, "later.txt"), "later\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "later");
    await addProject(skiff, "demo", repo);
    const checkedOut = await newPane(skiff, [
      "--project",
      "demo",
      "--worktree",
      "feat",
      "--branch",
      "feature",
    ]);
    assertEquals(checkedOut.branch, "feature");
    assertEquals(git(checkedOut.worktree!.path, "rev-parse", "HEAD"), first);
    const based = await newPane(skiff, ["--project", "demo", "--worktree", "old", "--base", first]);
    assertEquals(based.branch, "skiff/old");
    assertEquals(git(based.worktree!.path, "rev-parse", "HEAD"), first);
    assert(!await exists(join(based.worktree!.path, "later.txt")), "the base's files, not HEAD's");
    const trees = await worktrees(skiff);
    assertEquals(trees.map((w) => [w.name, w.branch, w.base, w.branch_created]), [
      ["feat", "feature", "main", false],
      ["old", "skiff/old", first, true],
    ]);
  });
});

Deno.test("new --worktree: a project root below the repository's top starts in the same folder of the worktree", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"), { "web/index.html": "<p>\n" });
    await addProject(skiff, "web", join(repo, "web"));
    const out = await newPane(skiff, ["--project", "web", "--worktree", "ui"]);
    assertEquals(out.pane.cwd, join(out.worktree!.path, "web"));
    assert(await exists(join(out.pane.cwd, "index.html")));
  });
});

Deno.test("kill leaves the worktree, its branch and its files; a restore comes back in it", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "keep", "--", ...BASH]);
    await skiff.ok(["new", "--project", "demo", "--worktree", "back", "--", ...BASH]);
    const keep = defaultWorktreePath(skiff, "demo", "keep");
    await Deno.writeTextFile(join(keep, "work.txt"), "unsaved work\n");
    await skiff.ok(["kill", "keep"]);
    assertEquals(await Deno.readTextFile(join(keep, "work.txt")), "unsaved work\n");
    git(repo, "rev-parse", "--verify", "refs/heads/skiff/keep");
    assert(git(repo, "worktree", "list").includes(keep));
    const listed = (await worktrees(skiff)).find((w) => w.name === "keep")!;
    assertEquals([listed.pane, listed.dirty, listed.state], [null, true, "ok"]);

    // A crash of skiffd: the next command restores the pane in its worktree.
    const back = defaultWorktreePath(skiff, "demo", "back");
    const before = (await panes(skiff)).find((p) => p.name === "back")!;
    const pid = (await skiff.daemonPid())!;
    Deno.kill(pid, "SIGKILL");
    await waitFor("skiffd to die", () => !pidAlive(pid));
    const after = (await panes(skiff)).find((p) => p.name === "back")!;
    assertEquals(after.id, before.id);
    assert(after.generation !== before.generation, "a new process");
    assertEquals(after.cwd, back);
    assertEquals(placeOf(after.worktree), { name: "back", branch: "skiff/back", path: back });
    await shellReady(skiff, "back");
    await typeLine(skiff, "back", "pwd");
    await skiff.waitForScreen("back", new RegExp(`^${back}$`, "m"));
  });
});

Deno.test("a restored pane whose last folder is gone comes back at its worktree's top", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "deep", "--", ...BASH]);
    const path = defaultWorktreePath(skiff, "demo", "deep");
    await Deno.mkdir(join(path, "tmp-sub"));
    await shellReady(skiff, "deep");
    await typeLine(skiff, "deep", "cd tmp-sub");
    await waitFor(
      "skiffd to see the new folder",
      async () =>
        (await panes(skiff)).find((p) => p.name === "deep")?.cwd === join(path, "tmp-sub"),
      {
        timeout: 15_000,
      },
    );
    await skiff.ok(["daemon", "stop"]);
    await Deno.remove(join(path, "tmp-sub"));
    const after = (await panes(skiff)).find((p) => p.name === "deep")!;
    assertEquals(after.cwd, path);
  });
});

Deno.test("two new --worktree of one name at once: one pane and one worktree, the other refused", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["daemon", "start"]);
    const args = ["new", "--project", "demo", "--worktree", "same", "--", ...BASH];
    const results = await Promise.all([skiff.run(args), skiff.run(args), skiff.run(args)]);
    assertEquals(
      results.map((r) => r.code).sort(),
      [0, 5, 5],
      results.map((r) => r.stderr).join(""),
    );
    for (const r of results.filter((r) => r.code === 5)) {
      assertEquals(r.stderr.trimEnd().split("\n").length, 1);
    }
    assertEquals((await panes(skiff)).length, 1);
    assertEquals((await worktrees(skiff)).map((w) => w.name), ["same"]);
    assertEquals(git(repo, "worktree", "list").split("\n").length, 2);
  });
});

Deno.test("new --worktree run in a project's folder, without --project, is that project's", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"), { "src/app.ts": "x\n" });
    await addProject(skiff, "demo", repo);
    const result = await skiff.run(
      ["new", "--worktree", "here", "--json", "--", ...BASH],
      { cwd: join(repo, "src") },
    );
    assertEquals(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as NewJson;
    assertEquals([out.pane.project, out.branch], ["demo", "skiff/here"]);
    assertEquals(out.pane.cwd, defaultWorktreePath(skiff, "demo", "here"));
  });
});
