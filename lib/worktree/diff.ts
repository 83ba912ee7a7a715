/**
 * A worktree's diff against its base, for `skiff diff`: committed and
 * uncommitted changes from where its history left the base, then each
 * untracked file as a new file, as one patch.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { joinBytes } from "../platform/bytes.ts";
import { runGit } from "./git.ts";
import { parseStatus } from "./porcelain.ts";
import type { WorktreePlace } from "./records.ts";
import { baseCommit, type Changes, changesOf, missingReason } from "./status.ts";

/** How long each git run of a diff may take. */
const DIFF_TIMEOUT_MS = 120_000;

/** Options for {@linkcode worktreeDiff}. */
export interface DiffOptions {
  /** Make the patch too (else only the files and the numbers). */
  patch?: boolean;
  /** Colour the patch for a terminal. */
  color?: boolean;
}

/** A worktree's diff. */
export interface WorktreeDiff extends Changes {
  /** The patch, when asked for. */
  patch: Uint8Array | null;
}

/** The diff of `record` against its base. Throws exit `NOT_FOUND` when it is missing. */
export async function worktreeDiff(
  record: WorktreePlace,
  options: DiffOptions = {},
): Promise<WorktreeDiff> {
  const missing = missingReason(record);
  if (missing) {
    throw new SkiffError(`Worktree '${record.name}' is missing: ${missing}`, {
      exit: "NOT_FOUND",
      details: { worktree: record.name, missing },
    });
  }
  const git = { cwd: record.path, read: true, timeoutMs: DIFF_TIMEOUT_MS };
  const status = await runGit(["status", "--porcelain=v2", "-z", "--untracked-files=all"], git);
  const untracked = status.code === 0 ? parseStatus(status.stdout).untracked : [];
  const base = await baseCommit(record, record.path);
  const changes = await changesOf(record, base, untracked);
  if (!options.patch) return { ...changes, patch: null };
  const color = options.color ? ["--color=always"] : ["--no-color"];
  const pieces: Uint8Array[] = [];
  const tracked = await runGit(["diff", ...color, changes.from, "--"], git);
  pieces.push(tracked.stdout);
  for (const path of untracked) {
    // --no-index exits 1 when the files differ, which a new file always does.
    const added = await runGit(["diff", "--no-index", ...color, "--", "/dev/null", path], git);
    pieces.push(added.stdout);
  }
  return { ...changes, patch: joinBytes(pieces) };
}
