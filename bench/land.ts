/**
 * Landing benchmarks: `skiff land` against the same steps done with plain
 * git commands (`git rebase BASE` in the worktree, then `git merge
 * --ff-only` in the checkout that has the base), each on a repository of
 * 2,000 files whose base moved on by one commit:
 *
 * - a branch of 50 commits, each changing one file;
 * - a branch of one commit that changes all 2,000 files.
 *
 * Each run lands a fresh branch in each of two identical repositories, one
 * for Skiff and one for git, in turn, so load falls on both. Skiff's time is
 * the whole command: its start, finding the worktree through skiffd, the
 * lock, the plan, the moves, and skiffd's count of the landed worktree.
 *
 * @module
 */

import { join } from "node:path";
import { type BenchRow, isolatedEnv, sampledRow, sh, skiff } from "./harness.ts";

const FILES = 2000;
const RUNS = 5;

const IDENTITY = ["-c", "user.name=Bench", "-c", "user.email=bench@skiff.invalid"];

function git(cwd: string, ...args: string[]): Promise<string> {
  return sh("git", ["-C", cwd, ...IDENTITY, ...args]);
}

/** A repository of FILES files of 40 lines each, in 40 folders, on main, with an identity. */
async function makeRepo(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "config", "user.name", "Bench");
  await git(dir, "config", "user.email", "bench@skiff.invalid");
  const body = Array.from({ length: 40 }, (_, i) => `line ${i} of a source file`).join("\n");
  for (let i = 0; i < FILES; i++) {
    const folder = join(dir, `src${i % 40}`);
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(join(folder, `file${i}.ts`), `${body}\n// ${i}\n`);
  }
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "first");
}

/** What a branch to land holds. */
type Shape = "commits" | "files";

/** Makes the branch's work in `path`: 50 one-file commits, or one commit of every file. */
async function work(path: string, shape: Shape, run: number): Promise<void> {
  if (shape === "commits") {
    for (let c = 0; c < 50; c++) {
      const n = (run * 50 + c) % FILES;
      const file = join(path, `src${n % 40}`, `file${n}.ts`);
      await Deno.writeTextFile(file, `run ${run} commit ${c}\n`, { append: true });
      await git(path, "commit", "-q", "-am", `Run ${run}, step ${c}`);
    }
    return;
  }
  for (let i = 0; i < FILES; i++) {
    await Deno.writeTextFile(join(path, `src${i % 40}`, `file${i}.ts`), `run ${run}\n`, {
      append: true,
    });
  }
  await git(path, "commit", "-q", "-am", `Run ${run}: every file`);
}

/** Moves main on by one commit of a file no branch touches. */
async function moveMain(repo: string, run: number): Promise<void> {
  await Deno.writeTextFile(join(repo, "main-only.txt"), `run ${run}\n`, { append: true });
  await git(repo, "add", "main-only.txt");
  await git(repo, "commit", "-q", "-m", `Main moves on (${run})`);
}

/** Lands RUNS fresh branches of `shape` with Skiff and with git; returns the two rows' samples. */
async function landRuns(
  shape: Shape,
  log: (line: string) => void,
): Promise<{ skiff: number[]; git: number[] }> {
  const { root, env } = await isolatedEnv();
  const samples = { skiff: [] as number[], git: [] as number[] };
  try {
    const ours = join(root, "skiff-repo");
    const theirs = join(root, "git-repo");
    await makeRepo(ours);
    await makeRepo(theirs);
    await skiff(["project", "add", "demo", ours], env);
    await skiff(["daemon", "start"], env);
    for (let run = 0; run < RUNS; run++) {
      const name = `r${run}`;
      await skiff(["new", "--project", "demo", "--worktree", name, "--", "sleep", "3600"], env);
      const path = join(env.HOME, ".local", "share", "skiff", "worktrees", "demo", name);
      const plain = join(root, `git-wt-${run}`);
      await git(theirs, "worktree", "add", "-q", "-b", `skiff/${name}`, plain, "main");
      await work(path, shape, run);
      await work(plain, shape, run);
      await moveMain(ours, run);
      await moveMain(theirs, run);
      const landSkiff = async () => {
        const start = performance.now();
        const out = JSON.parse(await skiff(["land", name, "--json"], env));
        samples.skiff.push(performance.now() - start);
        if (out.outcome !== "landed") throw new Error(`skiff land: ${out.outcome}`);
        if (run === 0) log(`  skiff land: ${out.commits.length} commits, ${out.diff.files} files`);
      };
      const landGit = async () => {
        const start = performance.now();
        await git(plain, "rebase", "-q", "main");
        await git(theirs, "merge", "-q", "--ff-only", `skiff/${name}`);
        samples.git.push(performance.now() - start);
      };
      // In turn, so neither always goes first.
      if (run % 2 === 0) {
        await landSkiff();
        await landGit();
      } else {
        await landGit();
        await landSkiff();
      }
      await skiff(["kill", name], env);
    }
    const [a, b] = [
      await git(ours, "rev-list", "--count", "main"),
      await git(theirs, "rev-list", "--count", "main"),
    ];
    if (a.trim() !== b.trim()) {
      throw new Error(`the two mains differ: ${a.trim()} and ${b.trim()} commits`);
    }
    return samples;
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => "");
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** Runs the landing benchmarks and returns table rows. */
export async function benchLand(log: (line: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (
    const [shape, what] of [
      ["commits", "a 50-commit branch"],
      ["files", `a ${FILES}-file change`],
    ] as const
  ) {
    const samples = await landRuns(shape, log);
    const row = sampledRow({
      metric: `land ${what} onto a moved base, ${FILES} files (vs git rebase + merge --ff-only)`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 1.5x plain git",
    }, { skiff: samples.skiff, baseline: samples.git, paired: true });
    row.met = row.skiff < 1.5 * row.tmux!;
    rows.push(row);
  }
  return rows;
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchLand((line) => console.error(line))));
}
