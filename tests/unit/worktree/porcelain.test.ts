/**
 * Reading git's porcelain output: from real git in a temporary repository,
 * with paths that hold spaces, newlines and quotes, a rename and a binary
 * file.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { commitAll, git, makeRepo } from "../../helpers/git.ts";
import { parseNumstat, parseStatus, parseWorktreeList } from "../../../lib/worktree/porcelain.ts";

function gitBytes(cwd: string, ...args: string[]): Uint8Array {
  const out = new Deno.Command("git", { args, cwd, stdout: "piped" }).outputSync();
  return out.stdout;
}

Deno.test("porcelain: worktree list, status and numstat with awkward paths", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skiff-porcelain-" });
  try {
    const repo = await makeRepo(join(dir, "repo"), {
      "plain.txt": "a\nb\n",
      "old name.txt": "x\ny\nz\n",
      "bin.dat": "\0\0",
    });
    git(repo, "branch", "side");
    const wt = join(dir, "wt with space");
    git(repo, "worktree", "add", "-q", "--detach", wt);
    git(repo, "worktree", "lock", "--reason", "kept", wt);
    const listed = parseWorktreeList(gitBytes(repo, "worktree", "list", "--porcelain", "-z"));
    assertEquals(listed.map((w) => [w.path, w.branch, w.detached, w.locked]), [
      [await Deno.realPath(repo), "main", false, null],
      [wt, null, true, "kept"],
    ]);
    assertEquals(listed[0].head, git(repo, "rev-parse", "HEAD"));

    git(repo, "mv", "old name.txt", "new\nname.txt");
    await Deno.writeTextFile(join(repo, "plain.txt"), "a\nb\nc\n");
    await Deno.writeFile(join(repo, "bin.dat"), new Uint8Array([0, 1, 0]));
    await Deno.writeTextFile(join(repo, 'quote "me".txt'), "q\n");
    const status = parseStatus(
      gitBytes(repo, "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"),
    );
    assertEquals(status.branch, "main");
    assertEquals(status.changed.sort(), ["bin.dat", "new\nname.txt", "plain.txt"]);
    assertEquals(status.untracked, ['quote "me".txt']);

    const base = git(repo, "rev-parse", "HEAD");
    commitAll(repo, "changes");
    const numstat = parseNumstat(gitBytes(repo, "diff", "--numstat", "-z", "-M", base, "HEAD"));
    assertEquals(numstat.map((e) => [e.path, e.from, e.added, e.removed]).sort(), [
      ["bin.dat", null, null, null],
      ["new\nname.txt", "old name.txt", 0, 0],
      ["plain.txt", null, 1, 0],
      ['quote "me".txt', null, 1, 0],
    ]);
    git(repo, "checkout", "-q", "--detach");
    assertEquals(
      parseStatus(gitBytes(repo, "status", "--porcelain=v2", "-z", "--branch")).branch,
      null,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("porcelain: a status before the first commit, and empty output", () => {
  assertEquals(parseStatus("# branch.oid (initial)\0# branch.head main\0? a b\0"), {
    branch: "main",
    head: null,
    changed: [],
    untracked: ["a b"],
  });
  assertEquals(parseNumstat(""), []);
  assertEquals(parseWorktreeList(new Uint8Array()), []);
});
