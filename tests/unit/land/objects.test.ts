/**
 * The plumbing of a landing: commits read whole (a signature header left
 * out of a rewrite), merges without a checkout (many in one run, or one a
 * run: the same trees), and commit objects whose ids Skiff works out and
 * git agrees with.
 */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { commitAll, git, makeRepo } from "../../helpers/git.ts";
import { mergeTrees, readCommits, writeCommits } from "../../../lib/land/objects.ts";

Deno.test("readCommits: tree, parents, author, message; a signature is not kept", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = await makeRepo(join(root, "repo"));
    const head = git(dir, "rev-parse", "HEAD");
    const tree = git(dir, "rev-parse", "HEAD^{tree}");
    // A commit with a multi-line signature header, written by hand.
    const raw = [
      `tree ${tree}`,
      `parent ${head}`,
      "author A U Thor <a@example.invalid> 1700000000 +0100",
      "committer C O Mitter <c@example.invalid> 1700000001 +0100",
      "encoding ISO-8859-1",
      "gpgsig -----BEGIN PGP SIGNATURE-----",
      " abc",
      " -----END PGP SIGNATURE-----",
      "",
      "Subject line",
      "",
      "Body.",
      "",
    ].join("\n");
    const file = join(root, "commit");
    await Deno.writeTextFile(file, raw);
    const signed = git(dir, "hash-object", "-t", "commit", "-w", "--literally", file);
    const [commit] = await readCommits(dir, [signed]);
    assertEquals(commit, {
      id: signed,
      tree,
      parents: [head],
      author: "A U Thor <a@example.invalid> 1700000000 +0100",
      extra: ["encoding ISO-8859-1"],
      message: "Subject line\n\nBody.\n",
      subject: "Subject line",
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mergeTrees: many merges in one run give the trees one run each gives; conflicts named", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = await makeRepo(join(root, "repo"));
    const base = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "-b", "side");
    await Deno.writeTextFile(join(dir, "side.txt"), "side\n");
    const clean = commitAll(dir, "side");
    await Deno.writeTextFile(join(dir, "app.txt"), "one\nSIDE\nthree\n");
    const clash = commitAll(dir, "clash");
    git(dir, "checkout", "-q", "main");
    await Deno.writeTextFile(join(dir, "app.txt"), "one\nMAIN\nthree\n");
    const main = commitAll(dir, "main");
    const pairs = [[main, clean], [main, clash], [base, clean]] as const;
    const together = await mergeTrees(dir, pairs);
    const apart = [];
    for (const pair of pairs) apart.push(...await mergeTrees(dir, [pair]));
    assertEquals(together, apart);
    assertEquals(together.map((m) => m.conflicts), [[], ["app.txt"], []]);
    assertEquals(together[2].tree, git(dir, "rev-parse", `${clean}^{tree}`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("writeCommits: a chain of commits in one run, with the ids git gives them", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = await makeRepo(join(root, "repo"));
    const head = git(dir, "rev-parse", "HEAD");
    const tree = git(dir, "rev-parse", "HEAD^{tree}");
    const who = "Skiff Test <test@skiff.invalid> 1700000000 +0000";
    const ids = await writeCommits(dir, root, [
      { tree, parents: [head], author: who, committer: who, message: "one" },
      { tree, parents: [null], author: who, committer: who, message: "two\n" },
    ]);
    assertEquals(git(dir, "rev-parse", `${ids[1]}^`), ids[0]);
    assertEquals(git(dir, "rev-parse", `${ids[0]}^`), head);
    assertEquals(git(dir, "log", "--format=%s", `-2`, ids[1]).split("\n"), ["two", "one"]);
    assertEquals(git(dir, "cat-file", "-t", ids[1]), "commit");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
