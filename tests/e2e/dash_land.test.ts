/**
 * The dashboard's worktree keys, in a real tmux with real git repositories:
 * each worktree pane's row shows its diff from the listing; `d` pages the
 * diff as `skiff diff` does (through less) and `q` comes back; `L` lands
 * after a confirmation that names the branch, the base and the commits, and
 * says the outcome on the status row.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertMatch } from "../helpers/assert.ts";
import { addProject, commitAll, defaultWorktreePath, makeRepo } from "../helpers/git.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TmuxPane } from "../agents/tmux.ts";

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
