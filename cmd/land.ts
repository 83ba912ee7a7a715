/**
 * `skiff land`: land a pane's worktree on its base, all or nothing. The
 * landing itself is `landWorktree` in `lib/land`; this reads the options,
 * stops the landing on Ctrl-C (everything is put back), and prints.
 *
 * @module
 */

import { plural } from "../lib/words.ts";
import { defineCommand, secondsToMs, SkiffError, stderr } from "../lib/cli/mod.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_REMOTE, landedLine } from "../lib/land/mod.ts";
import { landPane } from "../lib/ops/land_pane.ts";
import type { CheckReport, LandResult } from "../lib/protocol/land.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";

/** The check's last lines, indented, for a person. */
function tailLines(check: CheckReport): string[] {
  return check.output_tail.map((line) => `  | ${line}`);
}

/** The lines under the first one of a landing that went ahead. */
function detailLines(landed: LandResult): string[] {
  const lines: string[] = [];
  if (landed.committed) {
    lines.push(
      `  committed ${plural(landed.committed.files.length, "file")} first: ${
        landed.committed.message.split("\n")[0]
      }`,
    );
  }
  for (const commit of landed.commits) {
    lines.push(`  ${commit.commit?.slice(0, 12) ?? "(new)       "} ${commit.subject}`);
  }
  if (landed.base.where === "checkout") {
    const verb = landed.dry_run ? "would fast-forward" : "fast-forwarded";
    lines.push(`  ${verb} ${landed.base.name} in ${landed.base.checkout}`);
  } else if (landed.base.where === "ref") {
    const verb = landed.dry_run ? "would move" : "moved";
    lines.push(`  ${verb} ${landed.base.name} (checked out nowhere)`);
  }
  if (landed.check) {
    const check = landed.check;
    lines.push(
      check.ran
        ? `  check passed in ${((check.duration_ms ?? 0) / 1000).toFixed(1)} s: ${check.command}`
        : `  would run the check: ${check.command}`,
    );
  }
  const { files, added, removed } = landed.diff;
  lines.push(`  ${plural(files, "file")} changed, +${added} -${removed}`);
  if (landed.tasks.length > 0) {
    const verb = landed.dry_run ? "would mark landed" : "marked landed";
    lines.push(`  ${verb}: ${landed.tasks.map((t) => `${t.uid} ${t.task}`).join("; ")}`);
  }
  if (landed.removed?.removed) {
    const branch = landed.removed.branch_deleted ? "branch deleted" : "branch kept";
    lines.push(`  removed the worktree (${branch})`);
  }
  for (const warning of landed.warnings) lines.push(`  warning: ${warning}`);
  return lines;
}

/** The `land` command. */
export const command = defineCommand({
  name: "land",
  summary: "Land a pane's worktree on its base: rebase, check, fast-forward, all or nothing",
  description:
    "Put the work of a pane's git worktree (see 'skiff new --worktree') on its base branch, or change nothing. The branch is rebased onto the base's tip (--merge: a merge commit; --squash: one commit), the project's check (check = \"COMMAND\" in projects.toml) runs in the worktree, and the base moves: fast-forwarded in the checkout that has it checked out when that checkout is clean (refused when it is not), or its ref moved with a compare-and-swap when none has it. A conflict, a failing check, a dirty base checkout or a base that moved meanwhile refuses the landing with every ref, the index and every file as they were. Uncommitted work is refused unless --commit. The ledger tasks sent on the branch are marked landed with the commit range; the worktree and its pane stay unless --remove. One landing at a time per repository: a second waits, then rebases onto the first. --push pushes the branch instead (upstream set), to origin or to the remote named as --push=REMOTE or as REMOTE after PANE; --pr also opens a pull request with gh. Ctrl-C stops a landing and puts everything back.",
  args: [
    {
      name: "PANE",
      help:
        "The pane (id, name, project/name), or a worktree (NAME, PROJECT/NAME) whose pane is gone",
      complete: "pane",
    },
    {
      name: "REMOTE",
      help: "With --push or --pr: the remote (default origin); --push=REMOTE says the same",
    },
  ],
  options: [
    {
      name: "worktree",
      short: "w",
      type: "string",
      value: "NAME",
      help: "Land worktree NAME (or PROJECT/NAME) instead of a pane's",
      complete: "worktree",
    },
    {
      name: "commit",
      type: "boolean",
      help: "Commit the worktree's uncommitted work first (untracked files too, not ignored ones)",
    },
    {
      name: "message",
      short: "m",
      type: "string",
      value: "MSG",
      help: "With --commit: its message (default: from the ledger tasks sent on the branch)",
      requires: ["commit"],
    },
    { name: "merge", type: "boolean", help: "Merge with a merge commit instead of rebasing" },
    {
      name: "squash",
      type: "boolean",
      help: "Squash the branch into one commit on the base",
      conflicts: ["merge"],
    },
    { name: "no-check", type: "boolean", help: "Do not run the project's check" },
    {
      name: "check-timeout",
      type: "number",
      value: "S",
      help: `End the check after S seconds; it counts as failed (default ${
        DEFAULT_CHECK_TIMEOUT_MS / 60_000
      } min)`,
      conflicts: ["no-check"],
    },
    {
      name: "remove",
      type: "boolean",
      help: "Then remove the worktree, ending its panes (the branch stays unless --delete-branch)",
    },
    {
      name: "delete-branch",
      type: "boolean",
      help: "With --remove: delete the branch too",
      requires: ["remove"],
    },
    { name: "dry-run", type: "boolean", help: "Say what would happen; change nothing" },
    {
      name: "push",
      type: "boolean",
      value: "REMOTE",
      inlineValue: true,
      help: "Push the branch to REMOTE (default origin, upstream set) instead of landing it here",
    },
    {
      name: "pr",
      type: "boolean",
      value: "REMOTE",
      inlineValue: true,
      help: "Push, then open a pull request with 'gh pr create' (title and body from the tasks)",
    },
    { name: "draft", type: "boolean", help: "With --pr: open it as a draft", requires: ["pr"] },
    {
      name: "to-pane",
      type: "boolean",
      help: "On a conflict, send the worker a ledger task to rebase and resolve it",
    },
  ],
  examples: [
    "skiff land login",
    "skiff land login --commit -m 'Fix the login redirect'",
    "skiff land login --squash --remove --delete-branch",
    "skiff land --worktree api/login --dry-run --json",
    "skiff land login --to-pane",
    "skiff land login --pr --draft",
    "skiff land login --push=upstream",
  ],
  exits: [
    ["USAGE", "Bad usage, or git has no name and email to commit with; nothing was changed"],
    ["NOT_FOUND", "No such pane or worktree, the pane has none, it is missing, or no base branch"],
    "DAEMON",
    [
      "CONFLICT",
      "Uncommitted work (without --commit), the base's checkout is dirty, the base or the branch moved meanwhile, the pane is in a turn, or a rebase or merge is under way; nothing was changed",
    ],
    [
      "MERGE_CONFLICT",
      "The branch conflicts with the base (the files are listed); nothing was changed",
    ],
    ["CHECK_FAILED", "The check exited non-zero or ran too long; nothing was changed"],
    ["PUSH_FAILED", "--push: git could not push the branch; nothing was changed"],
    ["PR_FAILED", "--pr: pushed (the push stays), but gh is missing or failed"],
  ],
  run: async (ctx) => {
    const { opts } = ctx;
    let pane = ctx.args.PANE;
    let remote = ctx.args.REMOTE;
    if (opts.worktree !== undefined && pane !== undefined) {
      // With --worktree, the one word left is the remote.
      if (remote !== undefined) {
        throw new SkiffError(`Unexpected argument '${remote}': --worktree names the worktree`, {
          exit: "USAGE",
        });
      }
      remote = pane;
      pane = undefined;
    }
    const ref = opts.worktree ?? pane;
    if (ref === undefined) {
      throw new SkiffError("Missing argument PANE (or --worktree NAME)", { exit: "USAGE" });
    }
    if (remote !== undefined && !opts.push && !opts.pr) {
      throw new SkiffError(`Unexpected argument '${remote}': a remote goes with --push or --pr`, {
        exit: "USAGE",
      });
    }
    // The remote as --push=REMOTE or --pr=REMOTE, or as the word after PANE: named once.
    const named = [remote, opts.push, opts.pr].filter((v): v is string => typeof v === "string");
    if (named.length > 1) {
      throw new SkiffError(
        `The remote is named ${named.length} times (${
          named.join(", ")
        }): name it once, as --push=REMOTE or after PANE`,
        { exit: "USAGE" },
      );
    }
    remote = named[0];
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    // Ctrl-C, a kill, or the terminal (or a host's ssh) going: the landing stops and puts all back.
    const signals: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const signal of signals) Deno.addSignalListener(signal, onSignal);
    let landed: LandResult;
    try {
      landed = await landPane(ref, {
        as: opts.worktree !== undefined ? "worktree" : "either",
        strategy: opts.merge ? "merge" : opts.squash ? "squash" : "rebase",
        commit: opts.commit,
        message: opts.message,
        check: !opts["no-check"],
        checkTimeoutMs: opts["check-timeout"] === undefined
          ? undefined
          : secondsToMs(opts["check-timeout"], "check-timeout"),
        remove: opts.remove,
        deleteBranch: opts["delete-branch"],
        dryRun: opts["dry-run"],
        push: opts.push || opts.pr ? remote ?? DEFAULT_REMOTE : undefined,
        pr: opts.pr !== false,
        draft: opts.draft,
        toPane: opts["to-pane"],
        onProgress: (line) => ctx.out.notice(line),
        signal: stop.signal,
      });
    } catch (error) {
      // The check's own last lines come before the refusal's one line.
      const check = error instanceof SkiffError ? error.details.check as CheckReport : undefined;
      if (!ctx.json && check) {
        writeAllSync(stderr, new TextEncoder().encode(tailLines(check).join("\n") + "\n"));
      }
      throw error;
    } finally {
      for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    }
    ctx.out.result(landed, () => {
      ctx.out.line(landedLine(landed));
      if (landed.outcome !== "up_to_date") {
        for (const line of detailLines(landed)) ctx.out.line(line);
      }
    });
  },
});
