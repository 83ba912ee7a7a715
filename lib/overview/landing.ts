/**
 * What the dashboard's `L` and the app's Land button say about a landing,
 * in the same words: the question a dry run (`landWorktree` with `dryRun`)
 * leads to, and the one line for what the landing did or why it was
 * refused. Types only from `lib/protocol`, so the app's page bundles it.
 *
 * @module
 */

import type { LandRefusalDetails, LandResult } from "../protocol/land.ts";

/** A commit as the status row shows it: its first 7 hex digits. */
function short(commit: string): string {
  return commit.slice(0, 7);
}

/** `1 commit`, `3 commits`. */
function commits(n: number): string {
  return `${n} commit${n === 1 ? "" : "s"}`;
}

/** A range `A..B` with short commits. */
function shortRange(range: string): string {
  const [from, to] = range.split("..");
  return to === undefined ? range : `${short(from)}..${short(to)}`;
}

/**
 * Whether a dry run found anything to land: false when the branch holds no
 * commit the base lacks (and no changes), so there is nothing to ask.
 */
export function hasWorkToLand(dry: LandResult): boolean {
  return dry.outcome !== "up_to_date" && dry.commits.length > 0;
}

/** What a dry run with nothing to land says: `Nothing to land: skiff/x has no commits main lacks`. */
export function nothingToLand(dry: LandResult): string {
  return `Nothing to land: ${dry.worktree.branch} has no commits that ${dry.base.name} lacks`;
}

/**
 * The confirmation a dry run leads to, naming the branch, the base and the
 * commit count: `Land skiff/x onto main: 2 commits by rebase, then the check 'deno task check'?`
 */
export function landQuestion(dry: LandResult): string {
  const check = dry.check ? `, after the check '${dry.check.command}'` : "";
  const base = dry.base.where === "checkout" && dry.base.checkout
    ? `${dry.base.name} (checked out in ${dry.base.checkout})`
    : dry.base.name;
  return `Land ${dry.worktree.branch} onto ${base}: ${
    commits(dry.commits.length)
  } by ${dry.strategy}${check}?`;
}

/** What a landing did, in one line: `Landed skiff/x on main: 2 commits, 1a2b3c4..5d6e7f8`. */
export function landOutcome(result: LandResult): string {
  const warnings = result.warnings.length > 0 ? ` (${result.warnings.join("; ")})` : "";
  switch (result.outcome) {
    case "landed":
      return `Landed ${result.worktree.branch} on ${result.base.name}: ${
        commits(result.commits.length)
      }${result.range ? `, ${shortRange(result.range)}` : ""}${warnings}`;
    case "up_to_date":
      return nothingToLand(result) + warnings;
    case "pushed":
      return `Pushed ${result.worktree.branch} to ${
        result.push?.remote ?? "the remote"
      }${warnings}`;
    case "pr":
      return `Opened ${result.pr?.url ?? "a pull request"}${warnings}`;
    case "dry_run":
      return landQuestion(result);
  }
}

/**
 * Why a landing was refused, in one line: the conflicting files, the
 * check's last line, or the refusal's own message.
 */
export function landRefusal(message: string, details: Partial<LandRefusalDetails> = {}): string {
  switch (details.reason) {
    case "merge_conflict": {
      const files = details.conflicts ?? [];
      const where = details.commit ? ` applying ${short(details.commit)}` : "";
      return files.length > 0
        ? `Conflict${where} in ${files.join(", ")}: nothing changed`
        : message;
    }
    case "check_failed": {
      const check = details.check;
      if (!check) return message;
      if (check.timed_out) return `Check '${check.command}' ran too long and was ended: not landed`;
      const last = [...check.output_tail].reverse().find((line) => line.trim() !== "");
      return `Check failed (exit ${check.exit_code ?? "?"})${
        last ? `: ${last.trim()}` : ""
      }: not landed`;
    }
    default:
      return message;
  }
}
