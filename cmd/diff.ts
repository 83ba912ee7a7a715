/**
 * `skiff diff`: a pane's worktree against its base.
 *
 * @module
 */

import { defineCommand, Exit, type ExitName, SkiffError } from "../lib/cli/mod.ts";
import { page, wantsPager } from "../lib/cli/pager.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { parsePaneRef, withPane } from "../lib/hosts/resolve.ts";
import { runOnHost } from "../lib/hosts/run.ts";
import type { WorktreeInfo } from "../lib/protocol/worktrees.ts";
import { type FileChange, gitPager, type WorktreeDiff, worktreeDiff } from "../lib/worktree/mod.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";

/** A worktree `diff` found, and the pane in it (null when none is). */
interface Found {
  pane: { id: string; name: string } | null;
  worktree: WorktreeInfo;
}

/**
 * Finds the worktree of `ref`: the one place `diff` looks it up. `HOST:PANE`
 * goes through the resolver to a pane on another host; here a pane, or a
 * worktree (`NAME`, `PROJECT/NAME`) whose pane may be gone, or with
 * `--worktree` a worktree only.
 */
async function findWorktree(ref: string, worktreeOnly: boolean): Promise<Found> {
  if (!worktreeOnly && parsePaneRef(ref).host !== null) {
    const found = await withPane(ref, (client, pane) => client.call("pane.worktree", { pane }));
    return { pane: { id: found.pane, name: found.name }, worktree: found.worktree };
  }
  const found = await withDaemon((client) =>
    client.call("worktree.get", { ref, as: worktreeOnly ? "worktree" : "either" })
  );
  return { pane: found.pane, worktree: found.worktree };
}

/**
 * The diff of a worktree on another host: git runs there, through the host's
 * own `skiff diff` over the link, and its JSON comes back as a diff.
 */
async function diffOnHost(host: string, pane: string, patch: boolean): Promise<WorktreeDiff> {
  const args = ["diff", pane, "--json", ...(patch ? [] : ["--stat"])];
  const run = await runOnHost(host, args);
  if (run.code !== 0) {
    let error: { message?: string; code?: string } = {};
    try {
      error = JSON.parse(run.stderr).error ?? {};
    } catch {
      // Not JSON: the host's words as they are.
    }
    const exit = (error.code?.toUpperCase() ?? "ERROR") as ExitName;
    throw new SkiffError(`${host}: ${error.message ?? run.stderr.trim()}`, {
      exit: exit in Exit ? exit : "ERROR",
      details: { host },
    });
  }
  const result = JSON.parse(new TextDecoder().decode(run.stdout));
  return {
    from: result.from,
    files: result.changes,
    stat: { files: result.files, added: result.added, removed: result.removed },
    patch: typeof result.patch === "string" ? new TextEncoder().encode(result.patch) : null,
  };
}

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
    const found = await findWorktree(ref, ctx.opts.worktree !== undefined);
    const tree = found.worktree;
    const terminal = !ctx.json && wantsPager();
    const host = ctx.opts.worktree === undefined ? parsePaneRef(ref).host : null;
    const diff = host === null
      ? await worktreeDiff(tree, { patch: !ctx.opts.stat, color: terminal })
      : await diffOnHost(host, found.pane!.id, !ctx.opts.stat);
    const totals = { files: diff.stat.files, added: diff.stat.added, removed: diff.stat.removed };
    if (ctx.json) {
      ctx.out.data({
        host,
        pane: found.pane?.id ?? null,
        name: found.pane?.name ?? null,
        worktree: { name: tree.name, branch: tree.branch, path: tree.path, base: tree.base },
        from: diff.from,
        ...totals,
        changes: diff.files,
        ...(diff.patch ? { patch: new TextDecoder().decode(diff.patch) } : {}),
      });
      return;
    }
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
    else writeAllSync(Deno.stdout, text);
  },
});
