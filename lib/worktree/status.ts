/**
 * What git says about a worktree Skiff made: whether it is still there, the
 * branch it is on, whether it holds uncommitted work, how many commits it is
 * ahead of its base, and its changes against the base.
 *
 * Its changes are everything a person would lose or keep: commits since the
 * base, staged and unstaged edits, and untracked files (not ignored ones),
 * counted as git's `--numstat` counts them. Nothing here writes to the
 * repository: untracked files are read directly rather than added to an
 * index, and status runs without optional locks.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { DiffStat } from "../protocol/worktrees.ts";
import { runGit } from "./git.ts";
import { type NumstatEntry, parseNumstat, parseStatus, type StatusReport } from "./porcelain.ts";
import type { WorktreePlace, WorktreeRecord } from "./records.ts";
import { commitOf } from "./repo.ts";

/** How long each git run of an inspection may take. */
export const INSPECT_TIMEOUT_MS = 10_000;

/** Git reads the first this many bytes of a file to tell whether it is binary. */
const BINARY_PROBE = 8000;

/** Untracked files are counted line by line up to this many bytes in all. */
const UNTRACKED_READ_LIMIT = 64 * 1024 * 1024;

/** Why a worktree is missing, in one line, or null when it is there. */
export function missingReason(record: Pick<WorktreeRecord, "path">): string | null {
  let isDir = false;
  try {
    isDir = Deno.statSync(record.path).isDirectory;
  } catch {
    return `its folder ${record.path} is gone`;
  }
  if (!isDir) return `${record.path} is not a folder`;
  let link: string;
  try {
    link = Deno.readTextFileSync(join(record.path, ".git"));
  } catch {
    return `${record.path} is no longer a Git worktree (no .git file)`;
  }
  const gitdir = /^gitdir: (.*)$/m.exec(link)?.[1]?.trim();
  if (!gitdir) return `${record.path} is no longer a Git worktree`;
  try {
    Deno.statSync(gitdir.startsWith("/") ? gitdir : join(record.path, gitdir));
  } catch {
    return `its repository moved or is gone (${gitdir} is missing)`;
  }
  return null;
}

/** One changed file against the base. */
export interface FileChange {
  /** Its path in the worktree. */
  path: string;
  /** Its old path after a rename, else null. */
  from: string | null;
  /** Lines added (0 for a binary file). */
  added: number;
  /** Lines removed (0 for a binary file). */
  removed: number;
  /** Whether git sees it as binary. */
  binary: boolean;
  /** Whether it is untracked (a new file not yet added). */
  untracked: boolean;
}

/** The changes of a worktree against its base. */
export interface Changes {
  /** The commit compared against: where the worktree's history left the base. */
  from: string;
  /** Each changed file. */
  files: FileChange[];
  /** Their sum. */
  stat: DiffStat;
}

/** What an inspection found. */
export interface Inspection {
  /** Why it is missing, or null. */
  missing: string | null;
  /** Its status, while it is there. */
  status: StatusReport | null;
  /** Commits on it that are not on the base. */
  ahead: number | null;
  /** Commits on the base that are not on it. */
  behind: number | null;
  /** Whether its branch is on the base (see `WorktreeInfo.merged`). */
  merged: boolean | null;
  /** Its changes against the base. */
  changes: Changes | null;
}

/** An inspection of a worktree that is not there (or that git cannot read). */
export function missingInspection(missing: string | null): Inspection {
  return { missing, status: null, ahead: null, behind: null, merged: null, changes: null };
}

/** The commit the base names now, or the one it named when the worktree was made. */
export async function baseCommit(
  record: Pick<WorktreeRecord, "base" | "base_commit">,
  cwd: string,
): Promise<string> {
  if (record.base === record.base_commit) return record.base_commit;
  return await commitOf(cwd, record.base) ?? record.base_commit;
}

/** Looks at a worktree. Git's failures become a missing reason, never a throw. */
export async function inspect(record: WorktreeRecord): Promise<Inspection> {
  const missing = missingReason(record);
  if (missing) return missingInspection(missing);
  const options = { cwd: record.path, read: true, timeoutMs: INSPECT_TIMEOUT_MS };
  const status = await runGit(
    ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"],
    options,
  );
  if (status.code !== 0) {
    const why = new TextDecoder().decode(status.stdout) || status.stderr;
    return missingInspection(`git cannot read it: ${why.trim().split("\n")[0]}`);
  }
  const report = parseStatus(status.stdout);
  const base = await baseCommit(record, record.path);
  const { ahead, behind } = await aheadBehind(record.path, base);
  const changes = await changesOf(record, base, report.untracked);
  return {
    missing: null,
    status: report,
    ahead,
    behind,
    merged: isMerged(record, report.head, ahead),
    changes,
  };
}

/**
 * Commits on HEAD that `base` lacks (ahead), and on `base` that HEAD lacks
 * (behind), in one run of git; 0 and 0 when git cannot tell (no commit yet).
 */
export async function aheadBehind(
  cwd: string,
  base: string,
  head = "HEAD",
): Promise<{ ahead: number; behind: number }> {
  const counted = await runGit(["rev-list", "--left-right", "--count", `${base}...${head}`], {
    cwd,
    read: true,
    timeoutMs: INSPECT_TIMEOUT_MS,
  });
  if (counted.code !== 0) return { ahead: 0, behind: 0 };
  const [behind, ahead] = new TextDecoder().decode(counted.stdout).trim().split(/\s+/).map(Number);
  return { ahead: ahead || 0, behind: behind || 0 };
}

/**
 * Whether a worktree's branch is on its base: the base holds every commit of
 * it (`ahead` is 0), and it has moved since the worktree was made or Skiff
 * landed it, so a worktree nobody worked in yet is not called merged.
 */
export function isMerged(
  record: Pick<WorktreeRecord, "base_commit" | "landed">,
  head: string | null,
  ahead: number,
): boolean {
  return ahead === 0 && head !== null && (head !== record.base_commit || !!record.landed);
}

/**
 * The changes of a worktree against `base`: `git diff --numstat` from where
 * its history left the base (the merge base) to its files, plus its
 * untracked files, counted as git counts a new file.
 */
export async function changesOf(
  record: WorktreePlace,
  base: string,
  untracked: readonly string[],
): Promise<Changes> {
  const options = { cwd: record.path, read: true, timeoutMs: INSPECT_TIMEOUT_MS };
  const mergeBase = await runGit(["merge-base", base, "HEAD"], options);
  const from = mergeBase.code === 0 ? new TextDecoder().decode(mergeBase.stdout).trim() : base;
  const numstat = await runGit(["diff", "--numstat", "-z", from, "--"], options);
  const tracked: NumstatEntry[] = numstat.code === 0 ? parseNumstat(numstat.stdout) : [];
  const files: FileChange[] = tracked.map((e) => ({
    path: e.path,
    from: e.from,
    added: e.added ?? 0,
    removed: e.removed ?? 0,
    binary: e.added === null,
    untracked: false,
  }));
  let budget = UNTRACKED_READ_LIMIT;
  for (const path of untracked) {
    const counted = countLines(join(record.path, path), budget);
    budget -= counted.read;
    files.push({
      path,
      from: null,
      added: counted.lines,
      removed: 0,
      binary: counted.binary,
      untracked: true,
    });
  }
  const stat = files.reduce(
    (sum, f) => ({
      files: sum.files + 1,
      added: sum.added + f.added,
      removed: sum.removed + f.removed,
    }),
    { files: 0, added: 0, removed: 0 },
  );
  return { from, files, stat };
}

/**
 * Counts a file's lines as git's numstat does for a new file: its newlines,
 * plus one for a last line without one; a binary file (a NUL in its first
 * 8000 bytes) has none. Reads at most `budget` bytes (past that, 0 lines).
 */
export function countLines(path: string, budget: number): {
  lines: number;
  binary: boolean;
  read: number;
} {
  let data: Uint8Array;
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) {
      // Git stores a link's target as its content: one line.
      return { lines: 1, binary: false, read: 0 };
    }
    if (!info.isFile || info.size > budget) return { lines: 0, binary: false, read: 0 };
    data = Deno.readFileSync(path);
  } catch {
    return { lines: 0, binary: false, read: 0 };
  }
  if (data.subarray(0, BINARY_PROBE).includes(0)) {
    return { lines: 0, binary: true, read: data.length };
  }
  let lines = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 10) lines++;
  if (data.length > 0 && data[data.length - 1] !== 10) lines++;
  return { lines, binary: false, read: data.length };
}
