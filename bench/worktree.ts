/**
 * Worktree benchmarks, on a repository of 2,000 files:
 *
 * - counting a worktree's changes (what skiffd does after a turn end), next
 *   to git's own `status` and `diff --numstat` run by hand;
 * - `skiff ls --json` with 20 panes in worktrees, next to 20 plain panes: the
 *   counts are read, never taken, when `ls` runs;
 * - `skiff diff --stat`, next to `git diff --stat`.
 *
 * @module
 */

import { join } from "node:path";
import { type BenchRow, isolatedEnv, sampledRow, sh, skiff, timeSkiff } from "./harness.ts";
import { inspect } from "../lib/worktree/status.ts";
import type { WorktreeRecord } from "../lib/worktree/records.ts";

const FILES = 2000;
const PANES = 20;
const RUNS = 11;

const IDENTITY = ["-c", "user.name=Bench", "-c", "user.email=bench@skiff.invalid"];

function git(cwd: string, ...args: string[]): Promise<string> {
  return sh("git", ["-C", cwd, ...IDENTITY, ...args]);
}

/** A repository of FILES files of 40 lines each, in 40 folders, on main. */
async function makeRepo(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  const body = Array.from({ length: 40 }, (_, i) => `line ${i} of a source file`).join("\n");
  for (let i = 0; i < FILES; i++) {
    const folder = join(dir, `src${i % 40}`);
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(join(folder, `file${i}.ts`), `${body}\n// ${i}\n`);
  }
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "first");
}

/** Changes a worktree as an agent's turn would: 2 commits, 20 edited files, 5 new ones. */
async function makeChanges(path: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await Deno.writeTextFile(join(path, `src${i % 40}`, `file${i}.ts`), `changed ${i}\n`);
    if (i === 9 || i === 19) {
      await git(path, "add", "-A");
      await git(path, "commit", "-q", "-m", `step ${i}`);
    }
  }
  for (let i = 20; i < 30; i++) {
    await Deno.writeTextFile(join(path, `src${i % 40}`, `file${i}.ts`), `edited ${i}\n`);
  }
  for (let i = 0; i < 5; i++) await Deno.writeTextFile(join(path, `new${i}.ts`), "a\nb\nc\n");
}

/** Runs the worktree benchmarks and returns table rows. */
export async function benchWorktree(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  try {
    const repo = join(root, "repo");
    await makeRepo(repo);
    await skiff(["project", "add", "demo", repo], env);
    await skiff(["daemon", "start"], env);
    for (let i = 0; i < PANES; i++) {
      await skiff(["new", "--project", "demo", "--worktree", `w${i}`, "--", "sleep", "3600"], env);
      await skiff(["new", "--name", `plain${i}`, "--", "sleep", "3600"], env);
    }
    const path = join(env.HOME, ".local", "share", "skiff", "worktrees", "demo", "w0");
    await makeChanges(path);
    const record = {
      name: "w0",
      path,
      base: "main",
      base_commit: (await git(repo, "rev-parse", "main")).trim(),
    } as WorktreeRecord;

    const counts: number[] = [];
    const byHand: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let start = performance.now();
      const seen = await inspect(record);
      counts.push(performance.now() - start);
      if (i === 0) log(`  a count: ${JSON.stringify(seen.changes?.stat)}, ${seen.ahead} ahead`);
      start = performance.now();
      await git(path, "status", "--porcelain=v2", "--untracked-files=all");
      await git(path, "diff", "--numstat", "main");
      byHand.push(performance.now() - start);
    }
    const countRow = sampledRow({
      metric: `count a worktree's changes, ${FILES} files (vs git status + diff --numstat)`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 3x git by hand",
    }, { skiff: counts, baseline: byHand, paired: true });
    countRow.met = countRow.skiff < 3 * countRow.tmux!;
    log(
      `  ${PANES} turn ends at once are counted one after another: the last ~${
        Math.round(countRow.skiff * PANES)
      } ms later`,
    );

    // A skiffd with only plain panes, for the baseline; the two are asked in turn, so load hits both.
    const plain = await isolatedEnv();
    const plainLs: number[] = [];
    const plainOnly: number[] = [];
    try {
      await skiff(["daemon", "start"], plain.env);
      for (let i = 0; i < 2 * PANES; i++) {
        await skiff(["new", "--name", `plain${i}`, "--", "sleep", "3600"], plain.env);
      }
      for (let i = 0; i < RUNS; i++) {
        const run = await timeSkiff(["ls", "--json"], env);
        plainLs.push(run.ms);
        plainOnly.push((await timeSkiff(["ls", "--json"], plain.env)).ms);
        if (i === 0) {
          const panes = JSON.parse(run.stdout).panes.length;
          log(`  ls --json lists ${panes} panes, ${PANES} of them in worktrees`);
        }
      }
    } finally {
      await skiff(["daemon", "stop"], plain.env).catch(() => "");
      await Deno.remove(plain.root, { recursive: true }).catch(() => {});
    }
    const lsRow = sampledRow({
      metric: `ls --json, ${PANES} of ${2 * PANES} panes in worktrees (vs ${
        2 * PANES
      } plain panes)`,
      unit: "ms",
      higherIsBetter: false,
      target: "< 1.2x: counts are read, not taken",
    }, { skiff: plainLs, baseline: plainOnly, paired: true });
    lsRow.met = lsRow.skiff < 1.2 * lsRow.tmux!;

    const diffs: number[] = [];
    const gitDiffs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      diffs.push((await timeSkiff(["diff", "w0", "--stat"], env)).ms);
      const start = performance.now();
      await git(path, "diff", "--stat", "main");
      gitDiffs.push(performance.now() - start);
    }
    const diffRow = sampledRow({
      metric: `diff --stat, ${FILES} files (vs git diff --stat)`,
      unit: "ms",
      higherIsBetter: false,
    }, { skiff: diffs, baseline: gitDiffs, paired: true });
    return [countRow, lsRow, diffRow];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => "");
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchWorktree((line) => console.error(line))));
}
