/**
 * `skiff diff`: a pane's worktree against its base.
 *
 * @module
 */

import { defineCommand, PANE_ARG, stdout } from "../lib/cli/mod.ts";
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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The `diff` command. */
export const command = defineCommand({
  name: "diff",
  summary: "Show a pane's worktree against its base",
  description:
    "Show what the pane's git worktree (see 'skiff new --worktree') holds against its base: commits since the base, uncommitted changes and untracked files, as one patch. On a terminal it goes through your pager (git's: GIT_PAGER, core.pager, PAGER, else less). Running it also refreshes the pane's counts in 'skiff ls'.",
  args: [PANE_ARG],
  options: [
    { name: "stat", type: "boolean", help: "Only each file's added and removed lines, and totals" },
  ],
  examples: ["skiff diff login", "skiff diff login --stat", "skiff diff p4 --json"],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    ["NOT_FOUND", "No such pane, the pane has no worktree, its worktree is missing, or no git"],
    "DAEMON",
  ],
  run: async (ctx) => {
    if (ctx.json) {
      ctx.out.data(await paneDiff(ctx.args.PANE, { stat: ctx.opts.stat }));
      return;
    }
    const terminal = wantsPager();
    const { host, found, diff } = await readPaneDiff(ctx.args.PANE, {
      patch: !ctx.opts.stat,
      color: terminal,
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
