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

/**
 * Whether a dry run found anything to land: false when the branch holds no
 * commit the base lacks (and no changes), so there is nothing to ask.
 */
export function hasWorkToLand(dry: LandResult): boolean {
  return dry.outcome !== "up_to_date" && dry.commits.length > 0;
}

/** What a dry run with nothing to land says, as `skiff land` does. */
export function nothingToLand(dry: LandResult): string {
  return `Nothing to land: ${dry.base.name} has everything on ${dry.worktree.branch}`;
}

/**
 * The confirmation a dry run leads to, naming the branch, the base and the
 * commit count: `Land 2 commits of skiff/x onto main (rebase), after the check 'deno task check'?`
 */
export function landQuestion(dry: LandResult): string {
  const check = dry.check ? `, after the check '${dry.check.command}'` : "";
  const base = dry.base.where === "checkout" && dry.base.checkout
    ? `${dry.base.name} (checked out in ${dry.base.checkout})`
    : dry.base.name;
  return `Land ${
    commits(dry.commits.length)
  } of ${dry.worktree.branch} onto ${base} (${dry.strategy})${check}?`;
}

/**
 * What a landing did, in one line, in the words `skiff land` prints
 * (`landedLine` of `lib/land`, which a unit test holds this to):
 * `Landed 2 commits of skiff/x on main (rebase): 1a2b3c4d5e6f..7a8b9c0d1e2f`,
 * and any warning after it.
 */
export function landOutcome(result: LandResult): string {
  const count = commits(result.commits.length);
  const branch = result.worktree.branch;
  const warnings = result.warnings.length > 0 ? ` · ${result.warnings.join("; ")}` : "";
  switch (result.outcome) {
    case "up_to_date":
      return nothingToLand(result) + warnings;
    case "dry_run":
      return `Would land ${count} of ${branch} onto ${result.base.name} at ${
        result.base.before.slice(0, 12)
      } (${result.strategy})${warnings}`;
    case "pushed":
      return `Pushed ${branch} (${count}) to ${result.push?.remote}${warnings}`;
    case "pr":
      return `Opened ${result.pr?.url} for ${branch} (${count})${warnings}`;
    default:
      return `Landed ${count} of ${branch} on ${result.base.name} (${result.strategy}): ${
        result.range?.split("..").map((c) => c.slice(0, 12)).join("..")
      }${warnings}`;
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
