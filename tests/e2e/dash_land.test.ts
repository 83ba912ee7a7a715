/**
 * The dashboard's worktree keys, in a real tmux with real git repositories:
 * each worktree pane's row shows its diff from the listing; `d` pages the
 * diff as `skiff diff` does (through less) and `q` comes back; `L` lands
 * after a confirmation that names the branch, the base and the commits, and
 * says the outcome on the status row; and `c` asks for a worktree in a
 * project whose root is a Git repository (issue 28, case 5).
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { addProject, commitAll, defaultWorktreePath, git, makeRepo } from "../helpers/git.ts";
import { commitFiles, landingRepo, shellInWorktree, snapshot } from "../helpers/land.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TmuxPane } from "../agents/tmux.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** The dashboard in its own tmux server, and a wait on what its screen shows. */
interface TmuxDash {
  tmux: TmuxPane;
  /** Waits until the screen matches `pattern`; returns the screen. */
  screen(pattern: RegExp | string, timeout?: number): Promise<string>;
  /** Waits until the screen no longer matches `pattern`. */
  gone(pattern: RegExp | string): Promise<void>;
  /** Moves the selection until its row holds ` name `. */
  select(name: string): Promise<void>;
}

const matches = (text: string, pattern: RegExp | string) =>
  typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);

async function openTmuxDash(skiff: SkiffEnv, env: Record<string, string> = {}): Promise<TmuxDash> {
  const tmux = await TmuxPane.start({
    socket: `skiff-dash-land-${Deno.pid}-${Date.now()}`,
    cols: 160,
    rows: 30,
    cwd: skiff.env.HOME,
    env: { ...skiff.env, ...env },
  });
  const screen = async (pattern: RegExp | string, timeout = 20_000) => {
    let last = "";
    await waitFor(`tmux to show ${pattern}`, async () => {
      last = await tmux.capture();
      return matches(last, pattern);
    }, { timeout }).catch((error) => {
      throw new Error(`${error.message}\n${last}`);
    });
    return last;
  };
  const gone = async (pattern: RegExp | string) => {
    let last = "";
    await waitFor(`tmux to stop showing ${pattern}`, async () => {
      last = await tmux.capture();
      return !matches(last, pattern);
    }).catch((error) => {
      throw new Error(`${error.message}\n${last}`);
    });
  };
  const selected = async () => (await tmux.capture()).split("\n").find((l) => l.startsWith("›"));
  const select = async (name: string) => {
    for (let i = 0; i < 20; i++) {
      const row = await selected();
      if (row?.includes(` ${name} `)) return;
      await tmux.type("j");
      await waitFor("the selection to move", async () => (await selected()) !== row, {
        timeout: 5000,
      }).catch(() => {});
    }
    throw new Error(`could not select ${name}:\n${await tmux.capture()}`);
  };
  await tmux.type(`${Deno.execPath()} run -A -q ${MAIN} dash`);
  await tmux.keys("Enter");
  await screen("watcher: ");
  return { tmux, screen, gone, select };
}

/** A project `demo` on a fresh repository, and a shell pane in worktree `name` of it. */
async function worktreePane(skiff: SkiffEnv, name: string): Promise<{ repo: string; wt: string }> {
  const repo = join(skiff.root, "repo");
  try {
    await Deno.stat(repo);
  } catch {
    await makeRepo(repo);
    await addProject(skiff, "demo", repo);
  }
  await skiff.ok(["new", "--project", "demo", "--worktree", name, "--name", name, "--", ...BASH]);
  return { repo, wt: defaultWorktreePath(skiff, "demo", name) };
}

/** Asks skiffd to count the worktree of `pane` again, as a turn end would. */
async function recount(skiff: SkiffEnv, pane: string): Promise<void> {
  await skiff.ok(["diff", pane, "--stat"]);
}

Deno.test("dash d: the row shows the worktree's diff; d pages it through less and q comes back", async () => {
  await withSkiff(async (skiff) => {
    const { wt } = await worktreePane(skiff, "fix-a");
    await worktreePane(skiff, "quiet");
    await Deno.writeTextFile(join(wt, "app.txt"), "one\nTWO\nthree\nfour\n");
    await Deno.writeTextFile(join(wt, "added.txt"), "paged-line-41\npaged-line-42\n");
    commitAll(wt, "Work of fix-a");
    await recount(skiff, "fix-a");
    const dash = await openTmuxDash(skiff, { PAGER: "less", GIT_PAGER: "less" });
    try {
      // The row's diff: the listing's own count, +4 −1 over two files.
      const list = await dash.screen(/fix-a \[skiff\/fix-a\].* \+4 −1 /);
      assertMatch(list, /quiet \[skiff\/quiet\].* \+0 −0 /);
      await dash.select("fix-a");
      await dash.tmux.type("d");
      // less has the terminal: the patch shows, and the dashboard does not.
      const paged = await dash.screen("+paged-line-42");
      assertMatch(paged, /diff --git a\/added\.txt b\/added\.txt/);
      assert(!paged.includes("watcher: "), paged);
      await dash.tmux.type("q");
      const back = await dash.screen("Diff of fix-a (skiff/fix-a) against ");
      assertMatch(back, /2 files, \+4 −1/);
      assertMatch(back, /› +fix-a /);
      // Keys are the dashboard's again.
      await dash.tmux.type("j");
      await dash.screen(/› +quiet /);
      // A worktree with nothing in it says so and pages nothing.
      await dash.tmux.type("d");
      await dash.screen("No changes in quiet (skiff/quiet) against ");
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("dash: a worktree row follows commits that end no turn: counted when selected, and after the selected pane printed", async () => {
  await withSkiff(async (skiff) => {
    await worktreePane(skiff, "first");
    const { wt } = await worktreePane(skiff, "shelly");
    const dash = await openTmuxDash(skiff);
    try {
      await dash.screen(/shelly \[skiff\/shelly\].* \+0 −0 /);
      // A commit made outside any turn: nothing has counted it yet.
      await Deno.writeTextFile(join(wt, "one.txt"), "a\nb\nc\n");
      commitAll(wt, "One");
      // Selecting the pane counts its worktree; the new count comes as an event.
      await dash.select("shelly");
      await dash.screen(/shelly \[skiff\/shelly\].* \+3 −0 /);
      // A commit typed in the selected shell: counted once the pane has been quiet a moment.
      await skiff.ok([
        "keys",
        "shelly",
        "printf 'x\\ny\\n' > two.txt && git add two.txt && git -c user.name=T -c user.email=t@t.invalid commit -qm Two",
        "Enter",
      ]);
      await dash.screen(/shelly \[skiff\/shelly\].* \+5 −0 /);
      assertEquals(git(wt, "log", "-1", "--format=%s").trim(), "Two");
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("dash d: a pane without a worktree says so on the status row", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
    const dash = await openTmuxDash(skiff);
    try {
      await dash.select("plain");
      await dash.tmux.type("d");
      await dash.screen("d: plain (p1) has no worktree");
      await dash.tmux.type("?");
      const help = await dash.screen("worktree diff in the pager");
      assertMatch(help, /d +the pane's worktree diff/);
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("dash L: asks with the branch, the base and the commits; y lands on the base, n changes nothing", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const wt = await shellInWorktree(skiff, "demo", "fix-a");
    const work = await commitFiles(
      wt,
      { "feature.txt": "landed from the dashboard\n" },
      "Add a feature",
    );
    await recount(skiff, "p1");
    const before = await snapshot(repo);
    const dash = await openTmuxDash(skiff);
    try {
      await dash.select("fix-a");
      await dash.tmux.type("L");
      await dash.screen("Land 1 commit of skiff/fix-a onto main (checked out in ");
      await dash.screen("(rebase)? y/n");
      // Any key but y keeps everything as it was.
      await dash.tmux.type("n");
      await dash.screen("Not landed: skiff/fix-a is as it was");
      assertEquals(await snapshot(repo), before);

      await dash.tmux.type("L");
      await dash.screen("(rebase)? y/n");
      await dash.tmux.type("y");
      const landed = await dash.screen(
        /Landed 1 commit of skiff\/fix-a on main \(rebase\): [0-9a-f]{12}\.\.[0-9a-f]{12}/,
      );
      // The base holds the worktree's commit, in its checkout too; git says so.
      assertEquals(git(repo, "rev-parse", "main"), work);
      assertEquals(git(repo, "log", "-1", "--format=%s", "main"), "Add a feature");
      assertEquals(
        await Deno.readTextFile(join(repo, "feature.txt")),
        "landed from the dashboard\n",
      );
      assertEquals(git(repo, "status", "--porcelain"), "");
      const range = landed.match(/([0-9a-f]{12})\.\.([0-9a-f]{12})/)!;
      assertEquals(range[2], work.slice(0, 12));
      // The row says landed once skiffd counted it again.
      await dash.screen(/fix-a \[skiff\/fix-a\].* landed /);
      // Nothing new since: L says so, asks nothing and changes nothing.
      const after = await snapshot(repo);
      await dash.tmux.type("L");
      const nothing = await dash.screen("Nothing to land: main has everything on skiff/fix-a");
      assert(!nothing.includes("y/n"), nothing);
      assertEquals(await snapshot(repo), after);
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("dash L: a conflict names the files and leaves every ref, the index and the files as they were", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    const wt = await shellInWorktree(skiff, "demo", "clash");
    await commitFiles(wt, { "app.txt": "one\nworktree's two\nthree\n" }, "Edit app.txt here");
    await commitFiles(repo, { "app.txt": "one\nmain's two\nthree\n" }, "Edit app.txt on main");
    await recount(skiff, "p1");
    const before = { repo: await snapshot(repo), wt: await snapshot(wt) };
    const dash = await openTmuxDash(skiff);
    try {
      await dash.select("clash");
      await dash.tmux.type("L");
      const line = await dash.screen(
        /L: Conflict applying [0-9a-f]{7} in app\.txt: nothing changed/,
      );
      assert(!line.includes("y/n"), line);
      assertEquals({ repo: await snapshot(repo), wt: await snapshot(wt) }, before);
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("dash L: a failing check is refused with its last line, and the base stays", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff);
    await Deno.writeTextFile(
      skiff.configFile,
      (await Deno.readTextFile(skiff.configFile)) +
        `check = "echo checking; echo 'error: 2 tests failed' >&2; exit 3"\n`,
    );
    const wt = await shellInWorktree(skiff, "demo", "red");
    await commitFiles(wt, { "x.txt": "x\n" }, "Break the tests");
    const tip = git(repo, "rev-parse", "main");
    const dash = await openTmuxDash(skiff);
    try {
      await dash.select("red");
      await dash.tmux.type("L");
      await dash.screen("after the check 'echo checking;");
      await dash.tmux.type("y");
      await dash.screen("Check failed (exit 3): error: 2 tests failed: not landed");
      assertEquals(git(repo, "rev-parse", "main"), tip);
    } finally {
      await dash.tmux.kill();
    }
  });
});

Deno.test("case 5: dash in tmux: c in a project in a Git repository asks for a worktree, as skiff new --worktree", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "api", repo);
    const plainRoot = join(skiff.root, "plain");
    await Deno.mkdir(plainRoot);
    await addProject(skiff, "docs", plainRoot);
    await skiff.ok(["new", "--project", "api", "--name", "main", "--", ...BASH]);
    const dash = await openTmuxDash(skiff);
    const answer = async (text: string, next: RegExp | string) => {
      if (text) await dash.tmux.type(text);
      await dash.tmux.keys("Enter");
      return await dash.screen(next);
    };
    const panes = async () => (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
    try {
      await dash.screen(" main ");
      await dash.tmux.type("c");
      await dash.screen(/New pane: project \(Enter for none; api, docs\): /);
      await answer("api", /New pane: agent \(Enter for a shell; /);
      await answer("", "New pane: worktree of api's repository (Enter for none): ");
      await answer("login", "New pane: name (Enter for login): ");
      await answer("", /Made login \(p2\)/);
      const made = (await panes()).find((p) => p.name === "login")!;
      assertEquals(
        [made.project, made.worktree?.name, made.worktree?.branch, made.cwd],
        ["api", "login", "skiff/login", defaultWorktreePath(skiff, "api", "login")],
      );
      assertEquals(git(made.cwd, "branch", "--show-current").trim(), "skiff/login");
      // The list shows it with its branch.
      await dash.screen(/login \[skiff\/login\]/);

      // Enter for none: the pane starts in the project's root, as before.
      await dash.tmux.type("c");
      await answer("api", /New pane: agent/);
      await answer("", /New pane: worktree/);
      await answer("", "New pane: name (Enter for one made up): ");
      await answer("bare", /Made bare \(p3\)/);
      const bare = (await panes()).find((p) => p.name === "bare")!;
      assertEquals([bare.worktree, bare.cwd], [null, repo]);

      // A project whose root is no Git repository is not asked.
      await dash.tmux.type("c");
      await answer("docs", /New pane: agent/);
      const asked = await answer("", /New pane: name/);
      assert(!asked.includes("New pane: worktree"), asked);
      await answer("notes", /Made notes \(p4\)/);
      assertEquals((await panes()).find((p) => p.name === "notes")!.worktree, null);
    } finally {
      await dash.tmux.kill();
    }
  });
});
