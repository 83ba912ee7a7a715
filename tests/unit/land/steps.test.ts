/**
 * A landing's steps in a real repository: a ref swap that refuses a moved
 * ref, undone only from where it left the ref; a checkout's tree moved and
 * put back with its index byte for byte; an index someone else changed
 * since is left alone; and a journal left by a landing whose process died,
 * undone by the next.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { commitAll, git, makeRepo } from "../../helpers/git.ts";
import {
  Journal,
  landFolder,
  recoverLanding,
  runStep,
  StepRefused,
  undoStep,
} from "../../../lib/land/steps.ts";

async function repo(): Promise<
  { dir: string; first: string; second: string; cleanup(): Promise<void> }
> {
  const root = await Deno.makeTempDir();
  const dir = await makeRepo(join(root, "repo"));
  const first = git(dir, "rev-parse", "HEAD");
  await Deno.writeTextFile(join(dir, "app.txt"), "changed\n");
  await Deno.writeTextFile(join(dir, "new.txt"), "new\n");
  const second = commitAll(dir, "second");
  git(dir, "reset", "-q", "--hard", first);
  git(dir, "branch", "other", second);
  return { dir, first, second, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("ref step: a compare-and-swap; a moved ref refuses it, and an undo leaves a ref moved since", async () => {
  const r = await repo();
  try {
    const step = {
      kind: "ref" as const,
      cwd: r.dir,
      ref: "refs/heads/other",
      old: r.first,
      new: r.second,
      reason: "test",
    };
    const refused = await assertRejects(() => runStep(step), StepRefused) as StepRefused;
    assertEquals(refused.found, r.second, "other holds the second commit, not the first");
    await runStep({ ...step, old: r.second, new: r.first });
    assertEquals(git(r.dir, "rev-parse", "other"), r.first);
    assertEquals(await undoStep({ ...step, old: r.second, new: r.first }), []);
    assertEquals(git(r.dir, "rev-parse", "other"), r.second);
    // Someone moves it on: the undo says so and leaves it.
    git(r.dir, "update-ref", "refs/heads/other", r.first);
    const third = git(r.dir, "commit-tree", git(r.dir, "rev-parse", "HEAD^{tree}"), "-m", "third");
    git(r.dir, "update-ref", "refs/heads/other", third);
    const problems = await undoStep({ ...step, old: r.second, new: r.first });
    assertMatch(problems[0], /moved on to .* since; it was left there/);
    assertEquals(git(r.dir, "rev-parse", "other"), third);
  } finally {
    await r.cleanup();
  }
});

Deno.test("tree step: the checkout moves to another tree and back, its index byte for byte", async () => {
  const r = await repo();
  try {
    const index = join(r.dir, ".git", "index");
    const bytes = Deno.readFileSync(index);
    const step = {
      kind: "tree" as const,
      cwd: r.dir,
      index,
      backup: join(r.dir, ".git", "index.copy"),
      from: r.first,
      to: r.second,
    };
    await runStep(step);
    assertEquals(await Deno.readTextFile(join(r.dir, "new.txt")), "new\n");
    assertEquals(git(r.dir, "write-tree"), git(r.dir, "rev-parse", `${r.second}^{tree}`));
    assertEquals(await undoStep(step), []);
    assertEquals(Deno.readFileSync(index), bytes);
    assert(!(await Deno.stat(join(r.dir, "new.txt")).catch(() => null)), "the new file went");
    assertEquals(await Deno.readTextFile(join(r.dir, "app.txt")), "one\ntwo\nthree\n");
    // A file changed under it: git refuses, nothing is changed.
    await Deno.writeTextFile(join(r.dir, "app.txt"), "mine\n");
    await assertRejects(() => runStep(step), StepRefused);
    assertEquals(await Deno.readTextFile(join(r.dir, "app.txt")), "mine\n");
    // An index someone changed since a step is left as it is.
    git(r.dir, "checkout", "--", "app.txt");
    await runStep(step);
    git(r.dir, "rm", "-q", "--cached", "new.txt");
    const theirs = Deno.readFileSync(index);
    assertMatch((await undoStep(step))[0], /changed since the landing read it/);
    assertEquals(Deno.readFileSync(index), theirs);
  } finally {
    await r.cleanup();
  }
});

Deno.test("a journal left by a landing whose process died is undone by the next", async () => {
  const r = await repo();
  try {
    const common = join(r.dir, ".git");
    const journal = new Journal(common, "skiff/fix of demo/fix");
    const index = join(common, "index");
    const bytes = Deno.readFileSync(index);
    await journal.run({
      kind: "tree",
      cwd: r.dir,
      index,
      backup: journal.scratchFile("index"),
      from: r.first,
      to: r.second,
    });
    await journal.run({
      kind: "ref",
      cwd: r.dir,
      ref: "refs/heads/main",
      old: r.first,
      new: r.second,
      reason: "test",
    });
    // The process "dies" here: the journal stays, nothing is undone yet.
    const line = await recoverLanding(common);
    assertMatch(line!, /^undid a landing of skiff\/fix of demo\/fix that was cut off \(pid \d+, /);
    assertEquals(git(r.dir, "rev-parse", "main"), r.first);
    assertEquals(Deno.readFileSync(index), bytes);
    assertEquals(git(r.dir, "status", "--porcelain"), "");
    assertEquals([...Deno.readDirSync(landFolder(common))].map((e) => e.name), []);
    assertEquals(await recoverLanding(common), null, "nothing left to finish");
    // A landing that was whole is not undone.
    const whole = new Journal(common, "whole");
    await whole.run({
      kind: "ref",
      cwd: r.dir,
      ref: "refs/heads/main",
      old: r.first,
      new: r.second,
      reason: "test",
    });
    whole.landed();
    assertMatch((await recoverLanding(common))!, /was whole when its process ended/);
    assertEquals(git(r.dir, "rev-parse", "main"), r.second);
  } finally {
    await r.cleanup();
  }
});
