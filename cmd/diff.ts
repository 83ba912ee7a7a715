/**
 * `skiff diff`: a pane's worktree against its base.
 *
 * @module
 */

import { plural } from "../lib/words.ts";
import { defineCommand, SkiffError, stdout } from "../lib/cli/mod.ts";
import { page, wantsPager } from "../lib/cli/pager.ts";
import { type FileChange, gitPager } from "../lib/worktree/mod.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";
import { paneDiff, readPaneDiff } from "../lib/ops/pane_diff.ts";

/** The pager for a diff from another host: git's settings here have no repository to read. */
function gitPagerHere(): string {
  return Deno.env.get("GIT_PAGER") ?? Deno.env.get("PAGER") ?? "less";
}

/** One file's line of `--stat`: its path, then +added −removed (or `bin`). */
function statLine(file: FileChange, width: number): string {
  const name = file.from ? `${file.from} => ${file.path}` : file.path;
  const mark = file.untracked ? " (new)" : "";
  const counts = file.binary ? "bin" : `+${file.added} -${file.removed}`;
  return ` ${(name + mark).padEnd(width)} | ${counts}`;
}

/** The `diff` command. */
export const command = defineCommand({
  name: "diff",
  summary: "Show a pane's worktree against its base",
  description:
    "Show what the pane's git worktree (see 'skiff new --worktree') holds against its base: commits since the base, uncommitted changes and untracked files, as one patch. A worktree whose pane is gone is named as PROJECT/NAME, NAME, or --worktree NAME. On a terminal it goes through your pager (git's: GIT_PAGER, core.pager, PAGER, else less). Running it also refreshes the pane's counts in 'skiff ls'.",
  args: [
    {
      name: "PANE",
      help: "Pane id, name, project/name, HOST:PANE, or a worktree (NAME, PROJECT/NAME)",
      complete: "pane",
    },
  ],
  options: [
    { name: "stat", type: "boolean", help: "Only each file's added and removed lines, and totals" },
    {
      name: "worktree",
      short: "w",
      type: "string",
      value: "NAME",
      help: "Diff worktree NAME (or PROJECT/NAME), whether a pane is in it or not",
      complete: "worktree",
    },
  ],
  examples: [
    "skiff diff login",
    "skiff diff login --stat",
    "skiff diff p4 --json",
    "skiff diff --worktree api/login",
  ],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    [
      "NOT_FOUND",
      "No such pane or worktree, the pane has no worktree, its worktree is missing, or no git",
    ],
    "DAEMON",
  ],
  run: async (ctx) => {
    const ref = ctx.opts.worktree ?? ctx.args.PANE;
    if (ref === undefined) {
      throw new SkiffError("Missing argument PANE (or --worktree NAME)", { exit: "USAGE" });
    }
    if (ctx.opts.worktree !== undefined && ctx.args.PANE !== undefined) {
      throw new SkiffError("Name a pane or --worktree NAME, not both", { exit: "USAGE" });
    }
    const worktreeOnly = ctx.opts.worktree !== undefined;
    if (ctx.json) {
      ctx.out.data(await paneDiff(ref, { stat: ctx.opts.stat, worktreeOnly }));
      return;
    }
    const terminal = wantsPager();
    const { host, found, diff } = await readPaneDiff(ref, {
      patch: !ctx.opts.stat,
      color: terminal,
      worktreeOnly,
    });
    const tree = found.worktree;
    const totals = { files: diff.stat.files, added: diff.stat.added, removed: diff.stat.removed };
    if (diff.files.length === 0) {
      ctx.out.line(`No changes in ${tree.name} (${tree.branch}) against ${tree.base}.`);
      return;
    }
    let text: Uint8Array;
    if (diff.patch) {
      text = diff.patch;
    } else {
      const width = Math.min(
        60,
        Math.max(
          ...diff.files.map((f) =>
            (f.from ? `${f.from} => ` : "").length + f.path.length + (f.untracked ? 6 : 0)
          ),
        ),
      );
      const lines = diff.files.map((f) => statLine(f, width));
      lines.push(
        ` ${plural(totals.files, "file")} changed, ${plural(totals.added, "insertion")}(+), ${
          plural(totals.removed, "deletion")
        }(-)`,
      );
      text = new TextEncoder().encode(lines.join("\n") + "\n");
    }
    if (terminal) await page(text, host === null ? await gitPager(tree.path) : gitPagerHere());
    else writeAllSync(stdout, text);
  },
});
